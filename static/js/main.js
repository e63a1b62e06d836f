// Page entry point: wires the connection to the board.
import { connect } from './connection.js';
import { createBoard } from './board.js';

const board = createBoard(document.getElementById('board'));
const status = document.getElementById('connection');

connect({
  onStatus: (text) => { status.textContent = text; },
  onPosition: ({ fen }) => board.showPosition(fen),
});

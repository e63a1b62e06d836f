BEGIN TRANSACTION;
CREATE TABLE analyses (
    id TEXT PRIMARY KEY,
    pgn TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE TABLE changes (
    game_id TEXT NOT NULL REFERENCES games(id),
    version INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
);
INSERT INTO "changes" VALUES('FPV_RUi-b2TK',1,'{"version": 1, "type": "seat", "color": "black"}');
INSERT INTO "changes" VALUES('FPV_RUi-b2TK',2,'{"version": 2, "type": "name", "color": "black", "name": "Bob"}');
INSERT INTO "changes" VALUES('FPV_RUi-b2TK',3,'{"version": 3, "type": "move", "by": "white", "ply": 0, "uci": "e2e4", "san": "e4"}');
INSERT INTO "changes" VALUES('FPV_RUi-b2TK',4,'{"version": 4, "type": "move", "by": "black", "ply": 1, "uci": "e7e5", "san": "e5"}');
INSERT INTO "changes" VALUES('FPV_RUi-b2TK',5,'{"version": 5, "type": "move", "by": "white", "ply": 2, "uci": "g1f3", "san": "Nf3"}');
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    header TEXT NOT NULL,
    version INTEGER NOT NULL,
    invite_hash TEXT,
    active INTEGER NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
INSERT INTO "games" VALUES('FPV_RUi-b2TK','{"opponent": "friend", "creator": 0, "start_fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "clock": null, "level": null, "seed": 847906735, "assisted": true, "names": ["Alice", null], "review": false}','{"status": "playing", "outcome": null, "clock": null, "offers": [], "seated": [0, 1], "rematch": null, "friend_name": "Bob"}',5,'7c37dedafcfe5ff43a1fd330d04cd390c88bf445ba80310ec48beea17a691cfe',1,1.79575629496791934966e+09,1.79575629584523463249e+09);
CREATE TABLE lobby_hosts (
    host TEXT PRIMARY KEY,
    seen DOUBLE PRECISION NOT NULL
);
INSERT INTO "lobby_hosts" VALUES('7927cdf972bedc9f',1.79575629496448874473e+09);
INSERT INTO "lobby_hosts" VALUES('h',3.0);
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    uci TEXT NOT NULL,
    san TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
INSERT INTO "moves" VALUES('FPV_RUi-b2TK',0,'e2e4','e4');
INSERT INTO "moves" VALUES('FPV_RUi-b2TK',1,'e7e5','e5');
INSERT INTO "moves" VALUES('FPV_RUi-b2TK',2,'g1f3','Nf3');
CREATE TABLE reviews (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    done INTEGER NOT NULL,
    total INTEGER NOT NULL,
    results TEXT NOT NULL,
    evals TEXT NOT NULL,
    pgn TEXT,
    address TEXT NOT NULL,
    host TEXT,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL
);
INSERT INTO "reviews" VALUES('rev12345','FPV_RUi-b2TK','done',3,3,'{"moves": []}','[]',NULL,'127.0.0.1',NULL,1.0,2.0);
CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    color INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (game_id, color)
);
INSERT INTO "seats" VALUES('FPV_RUi-b2TK',0,'ec1de5bdb900b1ad938cf52cb37654854db41362189eebc5e440bd64633bcf09');
INSERT INTO "seats" VALUES('FPV_RUi-b2TK',1,'890208675c5190ccf7caaebe7d4204bc11842529367195a478a88063da372044');
CREATE TABLE seeks (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    owner TEXT NOT NULL,
    address TEXT NOT NULL,
    control TEXT NOT NULL,
    body TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    host TEXT NOT NULL
);
INSERT INTO "seeks" VALUES('seek1234','seek','sid-1','127.0.0.1','5+3','{"name": "Carol"}',3.0,'h');
CREATE INDEX reviews_status ON reviews(status, created);
CREATE INDEX reviews_address ON reviews(address, status);
CREATE INDEX games_active ON games(active) WHERE active = 1;
CREATE INDEX games_idle ON games(active, updated) WHERE active = 1;
CREATE INDEX seeks_owner ON seeks(owner);
CREATE INDEX seeks_address ON seeks(address);
CREATE INDEX seeks_waiting ON seeks(kind, control, created);
COMMIT;

// @ts-check
/**
 * The site menu's button on a phone (templates/site_menu.html): it opens and closes the folded
 * menu, says so through aria-expanded, and Escape closes it and gives the focus back to the
 * button. On a wide screen the button is not shown and the menu needs no script.
 */

const toggle = document.getElementById('menu-toggle');
const menu = document.getElementById('site-menu');

if (toggle && menu) {
  /** @param {boolean} open */
  const show = (open) => {
    toggle.setAttribute('aria-expanded', String(open));
    menu.classList.toggle('open', open);
  };
  toggle.addEventListener('click', () => show(toggle.getAttribute('aria-expanded') !== 'true'));
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !menu.classList.contains('open')) return;
    show(false);
    toggle.focus();
  });
}

// @ts-check
/**
 * The scripts' messages in the page's language: `t(msgid, params)` and
 * `tn(singular, plural, n, params)`, read from the `js` catalog the server embeds in every page
 * (templates/base.html, server/i18n). A message with no translation is shown in English, the
 * msgid. Placeholders are `{name}`, filled from `params`; `tn` fills `{n}` with the count too.
 * Also the footer's language picker: choosing a language submits its form.
 */

/** @typedef {{language: string, plural: string, messages: Record<string, string | string[]>}} Catalog */

/** @type {Catalog} */
const catalog = readCatalog();
// gettext's plural index. Every language served has two forms (index 0 for the forms the
// language calls "one", 1 for the rest), so Intl's rules give it without evaluating the
// catalog's C expression (which the page's Content-Security-Policy would forbid).
const pluralRules = new Intl.PluralRules(catalog.language);

/** @returns {Catalog} */
function readCatalog() {
  const element = typeof document === "undefined" ? null : document.getElementById("i18n-catalog");
  const empty = { language: "en", plural: "(n != 1)", messages: {} };
  if (!element || !element.textContent) return empty;
  try {
    return { ...empty, ...JSON.parse(element.textContent) };
  } catch {
    return empty;
  }
}

/**
 * @param {string} text
 * @param {Record<string, string | number>} [params]
 */
function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/**
 * A message in the page's language.
 * @param {string} msgid the English message, as extracted into the catalog
 * @param {Record<string, string | number>} [params]
 */
export function t(msgid, params) {
  const found = catalog.messages[msgid];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

/**
 * A message whose words follow a count, by the language's plural forms.
 * @param {string} singular
 * @param {string} plural
 * @param {number} n
 * @param {Record<string, string | number>} [params]
 */
export function tn(singular, plural, n, params) {
  const found = catalog.messages[singular];
  const index = pluralRules.select(n) === "one" ? 0 : 1;
  const english = n === 1 ? singular : plural;
  const text = Array.isArray(found) && found[index] ? found[index] : english;
  return fill(text, { n, ...params });
}

/** The page's language, as `<html lang>` says it. */
export function pageLanguage() {
  return catalog.language;
}

// The picker: its form is submitted as soon as a language is chosen.
if (typeof document !== "undefined") {
  for (const select of document.querySelectorAll("select[data-language-picker]")) {
    select.addEventListener("change", () => /** @type {HTMLSelectElement} */ (select).form?.submit());
  }
}

// The voter page's languages (issue 69, docs/voter-page.md "Languages"). Every word the page shows
// comes from a message catalogue (voter/i18n/<language>.json, served together as messages.json for
// the languages the election configures); none is in the code. A message is a template whose
// {name} placeholders take values; a value is text, a number (formatted with Intl.NumberFormat), a
// Date (Intl.DateTimeFormat, in UTC), a list (Intl.ListFormat) or another message ({ key, params }).
// A message may depend on a number: then it is an object naming the deciding placeholder ("plural")
// and a template for each plural category of Intl.PluralRules ("one", "few", ..., always "other").
// Placeholder values are shown isolated (<bdi>), so a key or a hash reads left to right inside
// right-to-left text. The language is the first of the browser's that the election offers, or the
// one the voter picks in the switch (also ?lang=).
'use strict';

const I18N = { language: 'en', catalogues: {}, fallback: 'en' };

/** A message to show later, in whatever language is chosen then. */
function msg(key, params) {
  return { key, params: params || {} };
}

/** The best offered language for the browser's ordered preferences: exact tag, then primary subtag. */
function pickLanguage(offered, wanted, fallback) {
  const tags = offered.map((t) => t.toLowerCase());
  for (const w of wanted) {
    const i = tags.indexOf(String(w).toLowerCase());
    if (i >= 0) return offered[i];
  }
  for (const w of wanted) {
    const primary = String(w).toLowerCase().split('-')[0];
    const i = tags.findIndex((t) => t.split('-')[0] === primary);
    if (i >= 0) return offered[i];
  }
  return fallback;
}

function catalogue() {
  return I18N.catalogues[I18N.language] || I18N.catalogues[I18N.fallback] || { messages: {} };
}

/** The template of {@code key} for these params: the plural form the deciding number takes. */
function template(key, params) {
  let m = catalogue().messages[key];
  if (m === undefined) m = (I18N.catalogues[I18N.fallback] || { messages: {} }).messages[key];
  if (m === undefined) return key;
  if (typeof m === 'string') return m;
  const n = params[m.plural];
  const category = new Intl.PluralRules(I18N.language).select(Number(n));
  return m[category] !== undefined ? m[category] : m.other;
}

/** One placeholder value as text in the current language. */
function valueText(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'bigint') return new Intl.NumberFormat(I18N.language).format(v);
  if (v instanceof Date) {
    return new Intl.DateTimeFormat(I18N.language, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(v);
  }
  if (Array.isArray(v)) return new Intl.ListFormat(I18N.language, { style: 'long', type: 'conjunction' }).format(v.map(valueText));
  if (typeof v === 'object' && v.key) return t(v.key, v.params);
  return String(v);
}

/** The message as text in the current language. */
function t(key, params) {
  const p = params || {};
  return template(key, p).replace(/\{([A-Za-z]+)\}/g, (whole, name) => (name in p ? valueText(p[name]) : whole));
}

/** Replaces the children of {@code el} with the message, each placeholder value in its own <bdi>. */
function render(el, key, params) {
  const p = params || {};
  const parts = template(key, p).split(/(\{[A-Za-z]+\})/);
  el.replaceChildren(...parts.filter((s) => s !== '').map((s) => {
    const name = /^\{([A-Za-z]+)\}$/.exec(s);
    if (!name || !(name[1] in p)) return document.createTextNode(s);
    const v = p[name[1]];
    if (typeof v === 'object' && v !== null && v.key) {
      const span = document.createElement('span');
      render(span, v.key, v.params);
      return span;
    }
    const bdi = document.createElement('bdi');
    bdi.textContent = valueText(v);
    return bdi;
  }));
}

/** Puts the page's own texts in the current language: data-i18n (content) and data-i18n-<attribute>. */
function translatePage() {
  const c = catalogue();
  document.documentElement.lang = I18N.language;
  document.documentElement.dir = c.dir === 'rtl' ? 'rtl' : 'ltr';
  document.title = t('page.title');
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-placeholder]')) el.placeholder = t(el.dataset.i18nPlaceholder);
}

/**
 * Loads the catalogues the election offers (messages.json beside the page), picks the language
 * and fills the switch {@code select}. Without them the page cannot speak: it says so in every
 * shipped catalogue's stead with the key names, which is visible and never silent.
 */
async function loadLanguages(url, select, onChange) {
  const r = await fetch(url, { cache: 'no-cache', credentials: 'omit' });
  if (!r.ok) throw new Error('the page\'s messages (' + url + ') answered ' + r.status);
  const all = await r.json();
  I18N.catalogues = all.languages;
  I18N.fallback = all.default;
  const offered = Object.keys(all.languages);
  const asked = new URLSearchParams(location.search).get('lang');
  I18N.language = pickLanguage(offered, (asked ? [asked] : []).concat(navigator.languages || [navigator.language]), all.default);
  select.replaceChildren(...offered.map((tag) => {
    const o = document.createElement('option');
    o.value = tag;
    o.lang = tag;
    o.textContent = all.languages[tag].language;
    return o;
  }));
  select.value = I18N.language;
  select.addEventListener('change', () => {
    I18N.language = select.value;
    const u = new URL(location.href);
    u.searchParams.set('lang', select.value);
    history.replaceState(null, '', u);
    translatePage();
    onChange();
  });
  translatePage();
}

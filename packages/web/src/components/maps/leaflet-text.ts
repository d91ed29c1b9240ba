/**
 * What Leaflet shows: a string handed to it as content (a tooltip, a popup, a divIcon's html, an
 * attribution) is parsed as HTML, so a site named `<img …>` became an element of the page (issue 30).
 * Every content goes through here instead: an element whose text is the string, never its markup.
 * The lint (eslint.config.js) refuses any other content.
 */
export function leafletText(text: string): HTMLElement {
  const span = document.createElement('span');
  span.textContent = text;
  return span;
}

export type CreditPart = { text: string; href?: string };

/** `[label](https://…)`: the one piece of structure a credit may hold, a link. */
const LINK = /\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g;

/**
 * The tiles' credit (MAP_TILE_ATTRIBUTION, docs/operations.md "Maps") as text and links: plain
 * text, its links written `[label](https://…)`, the rest shown as it is written.
 */
export function creditParts(credit: string): CreditPart[] {
  const parts: CreditPart[] = [];
  let last = 0;
  for (const match of credit.matchAll(LINK)) {
    if (match.index > last) parts.push({ text: credit.slice(last, match.index) });
    parts.push({ text: match[1]!, href: match[2]! });
    last = match.index + match[0].length;
  }
  if (last < credit.length) parts.push({ text: credit.slice(last) });
  return parts;
}

/** The credit as DOM nodes, built as text and links, for Leaflet's attribution corner. */
export function leafletCredit(credit: string): HTMLElement {
  const box = document.createElement('span');
  for (const part of creditParts(credit)) {
    if (part.href === undefined) {
      box.append(part.text);
      continue;
    }
    const link = document.createElement('a');
    link.href = part.href;
    link.textContent = part.text;
    link.rel = 'noopener noreferrer';
    link.target = '_blank';
    box.append(link);
  }
  return box;
}

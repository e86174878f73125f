// A small, linear scanner over the start of an HTML document: it yields the <html> tag, the first <title>
// text and every <meta>, <link> and <base> tag before <body> or </head>. It follows the parts of the HTML
// tokenizer that matter here (quoted and unquoted attributes, any order and case, comments, raw-text
// elements whose content must not be read as tags) without building a tree.
import { decodeEntities } from './html-entities';

export interface ScannedTag {
  name: 'html' | 'meta' | 'link' | 'base';
  /** Attribute names lower-cased; the first occurrence of a name wins, values entity-decoded. */
  attributes: Map<string, string>;
}

export interface ScannedHead {
  tags: ScannedTag[];
  /** The raw (entity-decoded) text of the first <title>, or null. */
  title: string | null;
}

const KEPT_TAGS = new Set(['html', 'meta', 'link', 'base']);
// A head with more tags than this is hostile or broken; what follows cannot matter for a title and an icon.
const MAX_KEPT_TAGS = 1000;
// Elements whose content is text, not markup: a "<meta" inside a script is not a meta tag.
const RAW_TEXT_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'textarea',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
]);
const TAG_NAME = /[A-Za-z][^\s/>]*/y;
const WHITESPACE = /[\s/]*/y;
const ATTRIBUTE_NAME = /[^\s/>][^\s/>=]*/y;
const UNQUOTED_VALUE = /[^\s>]*/y;

/** Scans the document head. Linear in the input; never throws on malformed markup. */
export function scanHead(html: string): ScannedHead {
  const tags: ScannedTag[] = [];
  let title: string | null = null;
  let position = 0;
  while (position < html.length) {
    const open = html.indexOf('<', position);
    if (open < 0) break;
    const next = html.charAt(open + 1);
    if (html.startsWith('<!--', open)) {
      position = endAfter(html, '-->', open + 4);
      continue;
    }
    if (next === '!' || next === '?') {
      position = endAfter(html, '>', open + 1);
      continue;
    }
    const closing = next === '/';
    TAG_NAME.lastIndex = open + (closing ? 2 : 1);
    const nameMatch = TAG_NAME.exec(html);
    if (!nameMatch) {
      position = open + 1;
      continue;
    }
    const name = nameMatch[0].toLowerCase();
    const tag = readAttributes(html, TAG_NAME.lastIndex);
    position = tag.end;
    if (closing) {
      if (name === 'head') break;
      continue;
    }
    if (name === 'body') break;
    if (name === 'title' || RAW_TEXT_TAGS.has(name)) {
      const closeAt = findClosingTag(html, name, position);
      if (name === 'title' && title === null) title = decodeEntities(html.slice(position, closeAt));
      position = endAfter(html, '>', closeAt);
      continue;
    }
    if (KEPT_TAGS.has(name)) tags.push({ name: name as ScannedTag['name'], attributes: tag.attributes });
    if (tags.length >= MAX_KEPT_TAGS) break;
  }
  return { tags, title };
}

function readAttributes(html: string, from: number): { attributes: Map<string, string>; end: number } {
  const attributes = new Map<string, string>();
  let position = from;
  while (position < html.length) {
    WHITESPACE.lastIndex = position;
    WHITESPACE.exec(html);
    position = WHITESPACE.lastIndex;
    if (position >= html.length) break;
    if (html[position] === '>') return { attributes, end: position + 1 };
    ATTRIBUTE_NAME.lastIndex = position;
    const nameMatch = ATTRIBUTE_NAME.exec(html);
    if (!nameMatch) return { attributes, end: position + 1 };
    const name = nameMatch[0].toLowerCase();
    position = skipSpaces(html, ATTRIBUTE_NAME.lastIndex);
    let value = '';
    if (html[position] === '=') {
      position = skipSpaces(html, position + 1);
      const quote = html[position];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, position + 1);
        const end = close < 0 ? html.length : close;
        value = html.slice(position + 1, end);
        position = end + 1;
      } else {
        UNQUOTED_VALUE.lastIndex = position;
        value = UNQUOTED_VALUE.exec(html)?.[0] ?? '';
        position = UNQUOTED_VALUE.lastIndex;
      }
    }
    if (!attributes.has(name)) attributes.set(name, decodeEntities(value, true));
  }
  return { attributes, end: html.length };
}

function skipSpaces(html: string, from: number): number {
  let position = from;
  while (position < html.length && /\s/.test(html.charAt(position))) position++;
  return position;
}

/** Index of "</name" (any case, followed by whitespace, "/" or ">"), or the end of the input. */
function findClosingTag(html: string, name: string, from: number): number {
  const pattern = new RegExp(`</${name}(?=[\\s/>]|$)`, 'gi');
  pattern.lastIndex = from;
  const match = pattern.exec(html);
  return match ? match.index : html.length;
}

function endAfter(html: string, marker: string, from: number): number {
  const index = html.indexOf(marker, from);
  return index < 0 ? html.length : index + marker.length;
}

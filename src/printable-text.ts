// What "printable text" means for every field a person types and others read: tool names and descriptions,
// category names and descriptions, API key names, OAuth client names. One rule, with the two allowances some
// fields need spelled as options, so a field's rule is read here and not rewritten beside it. What counts as a
// visible character (a name made only of blanks is no name) is here too, for tool names and OAuth client names.

/** Unicode control characters (Cc): C0, DEL and C1. */
const CONTROL = /\p{Cc}/u;
/** Control characters but tab and line feed: for multi-line text (a category description). */
const CONTROL_BUT_TAB_AND_LINE_FEED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** Format characters (Cf): zero-width joiners, soft hyphens, bidi controls. */
const FORMAT = /\p{Cf}/u;
/** Bidirectional embeddings, overrides and isolates: they make a text read as something else. */
const BIDI_OVERRIDE = /[\u202a-\u202e\u2066-\u2069]/u;
/**
 * Blank "letters" and "symbols": the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the braille blank (U+2800) and
 * the musical null notehead (U+1D159). Unicode files them as letters or symbols, yet they draw a blank, which is why
 * they are the usual way to fake an empty name or a space that is not one.
 */
export const FILLER_CHARACTERS = String.raw`\u115f\u1160\u2800\u3164\uffa0\u{1d159}`;
/** Letters, digits, symbols and punctuation: what a reader actually sees (not fillers, marks or zero-width characters). */
const VISIBLE = new RegExp(String.raw`(?![${FILLER_CHARACTERS}])[\p{L}\p{N}\p{S}\p{P}]`, 'gu');

export interface PrintableOptions {
  /** Tab and line feed are allowed (multi-line text). */
  lineBreaks?: boolean;
}

/** Any control character (tab and line feed allowed with `lineBreaks`). */
export const hasControlCharacters = (text: string, { lineBreaks = false }: PrintableOptions = {}): boolean =>
  (lineBreaks ? CONTROL_BUT_TAB_AND_LINE_FEED : CONTROL).test(text);

/** Any invisible character: a control (Cc) or format (Cf) character. */
export const hasInvisibleCharacters = (text: string): boolean => CONTROL.test(text) || FORMAT.test(text);

/** Any bidirectional override, embedding or isolate (U+202A–U+202E, U+2066–U+2069). */
export const hasBidiOverrides = (text: string): boolean => BIDI_OVERRIDE.test(text);

/** How many characters a reader sees (letters, digits, symbols, punctuation; fillers do not count). */
export const visibleCharacterCount = (text: string): number => text.match(VISIBLE)?.length ?? 0;

/** Printable text: well-formed Unicode without control characters. */
export const isPrintable = (text: string, options: PrintableOptions = {}): boolean =>
  text.isWellFormed() && !hasControlCharacters(text, options);

// What "printable text" means for every field a person types and others read: tool names and descriptions,
// category names and descriptions, API key names, OAuth client names. One rule, with the two allowances some
// fields need spelled as options, so a field's rule is read here and not rewritten beside it.

/** Unicode control characters (Cc): C0, DEL and C1. */
const CONTROL = /\p{Cc}/u;
/** Control characters but tab and line feed: for multi-line text (a category description). */
const CONTROL_BUT_TAB_AND_LINE_FEED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** Format characters (Cf): zero-width joiners, soft hyphens, bidi controls. */
const FORMAT = /\p{Cf}/u;
/** Bidirectional embeddings, overrides and isolates: they make a text read as something else. */
const BIDI_OVERRIDE = /[\u202a-\u202e\u2066-\u2069]/u;

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

/** Printable text: well-formed Unicode without control characters. */
export const isPrintable = (text: string, options: PrintableOptions = {}): boolean =>
  text.isWellFormed() && !hasControlCharacters(text, options);

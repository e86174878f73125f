// The name rule's prototype of one character, straight from the `unhomoglyph` package (the whole confusables.txt):
// the reference the generated subset (src/submissions/confusable-prototypes.ts) is made from and tested against.
import unhomoglyph from 'unhomoglyph';

const ASCII = /^[\u0000-\u007f]*$/;

/** As src/submissions/name.ts documents it: a folded letter whose own prototype is not ASCII takes its capital's. */
export function referencePrototypeOf(char: string): string {
  const own = unhomoglyph(char);
  if (ASCII.test(own)) return own;
  const capital = char.toUpperCase();
  if (capital === char) return own;
  const viaCapital = unhomoglyph(capital);
  if (!ASCII.test(viaCapital)) return own;
  return viaCapital === 'l' ? 'I' : viaCapital;
}

// The cursor of the change feed (docs/change-feed.md): a position in the feed's order, (position_xid, id) of
// listing_changes, written as "<position_xid>-<id>" in decimal. Opaque to mirrors; plain so an operator can read it.

/** A position: the feed's entries after it are the ones a mirror has not seen. */
export interface ChangePosition {
  /** An xid8 in decimal (a 64-bit number: kept as text, never a JavaScript number). */
  xid: string;
  /** listing_changes.id in decimal. */
  id: string;
}

/** The position before every change ever written. */
export const FEED_START: ChangePosition = { xid: '0', id: '0' };

const CURSOR = /^(0|[1-9]\d{0,19})-(0|[1-9]\d{0,18})$/;
const MAX_XID8 = 2n ** 64n - 1n;
const MAX_BIGINT = 2n ** 63n - 1n;

export const encodeCursor = (p: ChangePosition): string => `${p.xid}-${p.id}`;

/** The position a cursor names, or undefined when the text is no cursor this feed could have given. */
export function decodeCursor(text: string): ChangePosition | undefined {
  const match = CURSOR.exec(text);
  if (!match) return undefined;
  const [, xid, id] = match as unknown as [string, string, string];
  if (BigInt(xid) > MAX_XID8 || BigInt(id) > MAX_BIGINT) return undefined;
  return { xid, id };
}

/** Whether a comes before b in the feed's order. */
export function positionBefore(a: ChangePosition, b: ChangePosition): boolean {
  const ax = BigInt(a.xid);
  const bx = BigInt(b.xid);
  return ax < bx || (ax === bx && BigInt(a.id) < BigInt(b.id));
}

// Bytes to text: the charset from Content-Type, else a <meta charset> in the first 1024 bytes, else UTF-8.

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i;

/** Decodes an HTML body; an unknown or unsupported charset label falls back to UTF-8. */
export function decodeHtml(bytes: Uint8Array, contentType: string | null): string {
  const label = charsetFromContentType(contentType) ?? sniffMetaCharset(bytes) ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** The lower-cased media type without parameters, e.g. "text/html". */
export function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function charsetFromContentType(contentType: string | null): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return match?.[1] ?? null;
}

function sniffMetaCharset(bytes: Uint8Array): string | null {
  // Byte-per-character on purpose: charset names are ASCII, and not every runtime's TextDecoder knows latin1.
  const head = String.fromCharCode(...bytes.subarray(0, 1024));
  return META_CHARSET.exec(head)?.[1] ?? null;
}

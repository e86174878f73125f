import type { PublicTool } from './live-tools';

// The schema.org description of a tool's page (docs/seo.md "JSON-LD"), built from the same record the page shows.
// No `offers`: the crawl keeps no price (src/pipeline/stored-metadata.ts), and schema.org wants none rather than
// a guess. Values are the submitter's text; functions/pages/json-ld.ts writes them so they cannot leave the block.

/** A schema.org SoftwareApplication (without @context, which the page's JSON-LD writer adds). */
export interface SoftwareApplicationLd {
  '@type': 'SoftwareApplication';
  name: string;
  /** The tool's own website. */
  url?: string;
  description?: string;
  /** The absolute URL of our own copy of its image. */
  image?: string;
  /** Its directory categories by name: one as text, several as a list (schema.org allows free text). */
  applicationCategory?: string | string[];
  /** The "Verified maker" mark: the owner proved control of the tool's domain (docs/ownership.md "The mark"). */
  additionalProperty?: { '@type': 'PropertyValue'; name: 'verifiedMaker'; value: true; description: string };
  /** When the listing was last confirmed true: the last check that found the site answering, else when it went live. */
  dateModified?: string;
}

const isWebUrl = (value: string) => {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
};

/** The JSON-LD of a live tool's page; `origin` (deps.origin) makes the /media/ path of its image absolute. */
export function softwareApplicationLd(tool: PublicTool, origin: string): SoftwareApplicationLd {
  const categories = tool.categories.map((c) => c.name);
  const dateModified = tool.health.last_ok_at ?? tool.published_at;
  return {
    '@type': 'SoftwareApplication',
    name: tool.name,
    ...(isWebUrl(tool.url) ? { url: tool.url } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    ...(tool.image ? { image: `${origin}${tool.image}` } : {}),
    ...(categories.length ? { applicationCategory: categories.length === 1 ? categories[0]! : categories } : {}),
    ...(tool.verified_owner
      ? {
          additionalProperty: {
            '@type': 'PropertyValue',
            name: 'verifiedMaker',
            value: true,
            description: `The maker proved control of the domain by ${tool.verified_method}`,
          },
        }
      : {}),
    ...(dateModified ? { dateModified } : {}),
  };
}

import { z } from 'zod';
import { isPrintable } from '../printable-text';

// What a category and a tool's choice of categories may look like: one set of rules for the operator API,
// submit (REST, MCP), the review body and the search filter (docs/mcp-and-search.md "Categories").

/** Most categories one tool can be in. */
export const MAX_CATEGORIES_PER_TOOL = 3;
export const MAX_CATEGORY_SLUG_LENGTH = 40;
export const MAX_CATEGORY_NAME_LENGTH = 60;
export const MAX_CATEGORY_DESCRIPTION_LENGTH = 300;

/** Lower-case words of letters and digits joined by single hyphens: safe in URLs and query strings as is. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const slugMessage = (field: string) =>
  `${field} must be 1 to ${MAX_CATEGORY_SLUG_LENGTH} lower-case letters, digits and single hyphens (e.g. "image-editing")`;

export const isCategorySlug = (value: string) => value.length <= MAX_CATEGORY_SLUG_LENGTH && SLUG.test(value);

/** One category slug; `field` names the parameter in the error message. */
export const categorySlugSchema = (field = 'slug') =>
  z.string({ error: `${field} must be a string` }).refine(isCategorySlug, { error: slugMessage(field) });

export const categoryNameSchema = z
  .string({ error: 'name must be a string' })
  .trim()
  .min(1, { error: `name must be 1 to ${MAX_CATEGORY_NAME_LENGTH} characters` })
  .max(MAX_CATEGORY_NAME_LENGTH, { error: `name must be 1 to ${MAX_CATEGORY_NAME_LENGTH} characters` })
  .refine((v) => isPrintable(v), { error: 'name must be printable, well-formed text' });

/** An empty description is stored as none (null). */
export const categoryDescriptionSchema = z
  .string({ error: 'description must be a string or null' })
  .trim()
  .max(MAX_CATEGORY_DESCRIPTION_LENGTH, {
    error: `description must be at most ${MAX_CATEGORY_DESCRIPTION_LENGTH} characters`,
  })
  .refine((v) => isPrintable(v, { lineBreaks: true }), { error: 'description must be printable, well-formed text' })
  .transform((v) => v || null)
  .nullable();

/** The categories a submitter or an editor chooses for one tool: at most 3 distinct slugs. */
export const toolCategoriesSchema = z
  .array(categorySlugSchema('categories[]'), { error: 'categories must be an array of category slugs' })
  .max(MAX_CATEGORIES_PER_TOOL, { error: `categories must name at most ${MAX_CATEGORIES_PER_TOOL} categories` })
  .refine((list) => new Set(list).size === list.length, { error: 'categories must not name a category twice' });

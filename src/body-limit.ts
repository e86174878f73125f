// The largest request body the REST API, the MCP endpoint and the job endpoints read (the Stripe webhook has its
// own, larger one). One constant: the limits, their error messages and openapi.json's 413 descriptions read it.

export const BODY_LIMIT_BYTES = 64 * 1024;

/** `64 KiB`, for messages and descriptions. */
export const BODY_LIMIT_TEXT = `${BODY_LIMIT_BYTES / 1024} KiB`;

/** The largest form body the pages and the OAuth endpoints read: forms and client metadata are small. */
export const FORM_LIMIT_BYTES = 16 * 1024;

/** `16 KiB`. */
export const FORM_LIMIT_TEXT = `${FORM_LIMIT_BYTES / 1024} KiB`;

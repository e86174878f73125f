// openapi.json as the Worker's [build] command writes it into the static assets: the whole document with a
// stand-in origin, which the Worker replaces with its own (SITE_ORIGIN) once per isolate. The origin is the only
// part that differs between deployments: routes, schemas and limits are fixed by the code that is built.

/** Served path of the template among the Worker's static assets (public, like every asset: it is openapi.json). */
export const OPENAPI_TEMPLATE_ASSET_PATH = '/api/v1/openapi.template.json';
/** The origin the template is generated with; a reserved name (RFC 2606) that no deployment can have. */
export const TEMPLATE_ORIGIN = 'https://origin.openapi-template.invalid';

/** The template's text with `origin` in place of the stand-in (as JSON spells it, so the text stays valid JSON). */
export function withOrigin(template: string, origin: string): string {
  return template.replaceAll(TEMPLATE_ORIGIN, JSON.stringify(origin).slice(1, -1));
}

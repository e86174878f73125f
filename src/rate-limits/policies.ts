/**
 * The rate-limit policies: every limit of the service, once (docs/decisions.md, "Rate limits").
 * Each is a sliding window of `limit` requests per `windowSeconds`, counted per identifier (`per`).
 * Every check goes through checkRateLimit (./check.ts) and every text that states a limit (openapi.json,
 * llms.txt, MCP tool descriptions, error messages) is built from this table (./describe.ts).
 */
export interface RateLimitPolicyDefinition {
  limit: number;
  windowSeconds: number;
  /** Whose bucket it is: an account (all its API keys and sessions share it) or a client address. */
  per: 'account' | 'client IP' | 'client IP and per e-mail address';
  /** What is counted, as a plural noun for the texts ("10 submits per minute"). */
  counts: string;
}

export const rateLimitPolicies = {
  /** Submissions (REST and MCP submit_site). */
  submit: { limit: 10, windowSeconds: 60, per: 'account', counts: 'submits' },
  /** Reads of the account's own submissions (REST and MCP get_site_status). */
  read: { limit: 60, windowSeconds: 60, per: 'account', counts: 'reads' },
  /** Unauthenticated endpoints and every search (GET /?q=, /api/v1/tools, MCP search_tools and get_tool). */
  public: { limit: 60, windowSeconds: 60, per: 'client IP', counts: 'requests' },
  /**
   * The outbound link GET /go/{slug}: it runs a statement and moves a counter, so it is limited like a page, in a
   * bucket of its own (a person's clicks do not use up their browsing).
   */
  outboundLinks: { limit: 60, windowSeconds: 60, per: 'client IP', counts: 'outbound links' },
  /**
   * The badge GET /badge/{slug}.svg, likewise, apart from the links: it is loaded by other sites' pages (a list of
   * tools can embed dozens at once), not by a click of ours.
   */
  badges: { limit: 60, windowSeconds: 60, per: 'client IP', counts: 'badge loads' },
  /** Webhook endpoints registered or deleted, and test pings sent (each ping is an outgoing request). */
  webhooks: { limit: 10, windowSeconds: 60, per: 'account', counts: 'webhook changes and test pings' },
  /** API keys created on the account's keys page. */
  apiKeyCreate: { limit: 10, windowSeconds: 60, per: 'account', counts: 'new API keys' },
  /** Membership checkout links (each one creates a provider session). */
  membershipCheckout: { limit: 10, windowSeconds: 60, per: 'account', counts: 'membership checkouts' },
  /** Billing pages opened or changed from the account area (a Stripe Customer Portal session; the local cancel). */
  billingPortal: { limit: 10, windowSeconds: 60, per: 'account', counts: 'billing page requests' },
  /** The operator API and the editor's page. */
  admin: { limit: 120, windowSeconds: 60, per: 'client IP', counts: 'operator requests' },
  /** Sign-in code requests and code attempts, each counted per client IP and per e-mail address. */
  signin: { limit: 10, windowSeconds: 60, per: 'client IP and per e-mail address', counts: 'sign-in steps' },
  /** OAuth Dynamic Client Registration (POST /oauth/register): each one writes a row, so few per address. */
  oauthRegister: { limit: 10, windowSeconds: 3600, per: 'client IP', counts: 'client registrations' },
  /** OAuth token and revocation requests (POST /oauth/token, /oauth/revoke). */
  oauthToken: { limit: 60, windowSeconds: 60, per: 'client IP', counts: 'token requests' },
  /**
   * Stripe webhook deliveries refused for a missing or wrong signature. Only refusals are counted, after the
   * signature check: a correctly signed event is never limited, however many arrive (Stripe's addresses are shared).
   */
  stripeRefusals: { limit: 30, windowSeconds: 60, per: 'client IP', counts: 'refused Stripe deliveries' },
} as const satisfies Record<string, RateLimitPolicyDefinition>;

export type RateLimitPolicy = keyof typeof rateLimitPolicies;

/**
 * Beside its bucket per client IP (an IPv4 address or an IPv6 /64), every per-IP policy has a looser bucket per
 * IPv6 /48 network, this many times as large: one tunnel (a broker hands out a /48 for free) or one 6to4 prefix
 * (2002:V4ADDR::/48 is one IPv4 address) holds 65,536 /64s, and would otherwise get as many budgets. Looser, not
 * equal: an ISP that delegates a /56 per subscriber puts up to 256 households in one /48.
 */
export const PREFIX_48_MULTIPLIER = 16;

/** True for a policy counted per client address (and so per /48 too). */
export const isPerClientIp = (policy: RateLimitPolicy): boolean =>
  rateLimitPolicies[policy].per.startsWith('client IP');

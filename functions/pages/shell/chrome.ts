// The header and footer around every page of ours: the way in to search, submit, pricing and the account.
import { html } from 'hono/html';
import type { Html } from './html';

/** Which header link is the page the person is on (aria-current). */
export type Section = 'submit' | 'pricing' | 'account' | 'sign-in';

export interface HeaderState {
  /** Whether the request carries a session: "Account" instead of "Sign in". */
  signedIn: boolean;
  /** The search box's text (the search results page keeps what was searched). */
  query?: string;
  current?: Section;
}

/** A header link, marked as the current page where it is. */
const link = (href: string, text: string, section: Section, current?: Section, className?: string) =>
  html`<a${className ? html` class="${className}"` : ''} href="${href}"${section === current ? html` aria-current="page"` : ''}>${text}</a>`;

/** Skip link, name (home), search, Submit a tool, Pricing, and Sign in or Account. */
export function siteHeader({ signedIn, query, current }: HeaderState): Html {
  return html`<a class="skip" href="#main">Skip to content</a>
<header class="site"><div class="wrap">
<a class="brand" href="/">tool<span>dir</span></a>
<form class="search" method="get" action="/" role="search"><label class="vh" for="site-search">Search AI tools</label><input id="site-search" type="search" name="q" value="${query ?? ''}" placeholder="Search AI tools" maxlength="100"><button type="submit">Search</button></form>
<nav aria-label="Main"><ul>
<li>${link('/submit', 'Submit a tool', 'submit', current, 'button primary')}</li>
<li>${link('/pricing', 'Pricing', 'pricing', current)}</li>
<li>${signedIn ? link('/account', 'Account', 'account', current) : link('/account/sign-in', 'Sign in', 'sign-in', current)}</li>
</ul></nav>
</div></header>`;
}

/** For builders and agents: the API reference, llms.txt, the MCP connection page and the sitemap. */
export function siteFooter(): Html {
  return html`<footer class="site"><div class="wrap">
<p>tooldir – a directory of AI tools, reviewed by editors.</p>
<nav aria-label="For builders and agents"><ul>
<li><a href="/api/v1/docs">API reference</a></li>
<li><a href="/connect">Connect an agent (MCP)</a></li>
<li><a href="/llms.txt">llms.txt</a></li>
<li><a href="/sitemap.xml">Sitemap</a></li>
</ul></nav>
</div></footer>`;
}

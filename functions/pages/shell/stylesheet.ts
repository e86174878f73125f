// The one stylesheet of every page of ours (docs/pages.md "Visual system"): design tokens first, then
// the few components pages are built from. Served at a path that carries its hash (shell/assets.ts), so
// browsers and the edge keep it for a year and a change of a single rule is a new address.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { STATS_CHART_CSS } from '../account/stats-chart';
import { SUBMIT_STEP_CSS } from '../submit/submit-step-css';

// Tokens: a modular type scale (1.25), a 4 px spacing scale, and colours chosen for WCAG AA contrast in
// both schemes (axe-core checks them in Chromium, light and dark: test/e2e/browser/pages-*.test.ts).
const TOKENS = `:root{color-scheme:light dark;
--font:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",sans-serif;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;
--step--1:.875rem;--step-0:1rem;--step-1:1.25rem;--step-2:1.5625rem;--step-3:1.95rem;
--space-1:.25rem;--space-2:.5rem;--space-3:.75rem;--space-4:1rem;--space-5:1.5rem;--space-6:2rem;--space-7:3rem;
--radius:.5rem;--radius-lg:.875rem;--page:72rem;--narrow:42rem;
--bg:#f7f8fa;--surface:#fff;--text:#16181d;--muted:#555c6b;--border:#dadde4;--shadow:0 1px 2px rgb(16 24 40 / 6%);
--accent:#4338ca;--accent-hover:#3730a3;--on-accent:#fff;--link:#3b32c0;--focus:#0e7490;
--chip-bg:#eef0ff;--chip-text:#3730a3;--feature-bg:#fff1c2;--feature-text:#5f4500;--sponsor-bg:#dcefff;--sponsor-text:#0a4275;
--notice-bg:#eef6ff;--notice-line:#8fb8e8;--error-bg:#fff1f1;--error-line:#d98a8a;--error-text:#9b1c1c;--ok-bg:#ecfdf3;--ok-line:#6cbf8c}
@media (prefers-color-scheme:dark){:root{
--bg:#0f1115;--surface:#181b22;--text:#e9ebf1;--muted:#a8aebb;--border:#2d323d;--shadow:none;
--accent:#8e96ff;--accent-hover:#aab0ff;--on-accent:#10121a;--link:#a9afff;--focus:#67e8f9;
--chip-bg:#262a45;--chip-text:#cdd0ff;--feature-bg:#4a3b0a;--feature-text:#ffe08a;--sponsor-bg:#0f3350;--sponsor-text:#c2e1ff;
--notice-bg:#132238;--notice-line:#36669e;--error-bg:#3a1616;--error-line:#9a4343;--error-text:#ffc2c2;--ok-bg:#10301f;--ok-line:#2f7a4f}}`;

const BASE = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:var(--step-0)/1.55 var(--font);color:var(--text);background:var(--bg);overflow-wrap:anywhere}
h1,h2,h3{line-height:1.25;margin:var(--space-5) 0 var(--space-3)}h1{font-size:var(--step-3);margin-top:var(--space-4)}h2{font-size:var(--step-2)}h3{font-size:var(--step-1)}
p,ul,ol,table,form,dl{margin:0 0 var(--space-4)}
a{color:var(--link);text-underline-offset:.15em}a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
img{max-width:100%}
code,pre,kbd{font-family:var(--mono);font-size:.9em}pre{white-space:pre-wrap;background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);padding:var(--space-3)}
/* The hidden attribute wins over display rules such as button's inline-flex: a copy button stays hidden until its
   script reveals it, and without JavaScript it never shows. */
[hidden]{display:none!important}
.muted{color:var(--muted)}.small{font-size:var(--step--1)}
.vh{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.skip{position:absolute;left:var(--space-2);top:-4rem;background:var(--surface);color:var(--text);padding:var(--space-2) var(--space-3);border-radius:var(--radius);z-index:2}.skip:focus{top:var(--space-2)}
.wrap{max-width:var(--page);margin:0 auto;padding:0 var(--space-4)}
main{display:block;max-width:var(--page);margin:0 auto;padding:var(--space-2) var(--space-4) var(--space-7)}main.narrow{max-width:var(--narrow)}`;

const CHROME = `header.site{background:var(--surface);border-bottom:1px solid var(--border)}
header.site .wrap{display:flex;flex-wrap:wrap;align-items:center;gap:var(--space-3) var(--space-4);padding-top:var(--space-3);padding-bottom:var(--space-3)}
.brand{font-weight:800;font-size:var(--step-1);color:var(--text);text-decoration:none;letter-spacing:-.01em}.brand span{color:var(--accent)}
header.site form.search{flex:1 1 14rem;display:flex;gap:var(--space-2);margin:0;min-width:0}
header.site nav ul{display:flex;flex-wrap:wrap;align-items:center;gap:var(--space-2) var(--space-4);list-style:none;margin:0;padding:0}
header.site nav a{text-decoration:none;font-weight:600}header.site nav a[aria-current=page]{text-decoration:underline}
footer.site{border-top:1px solid var(--border);background:var(--surface);font-size:var(--step--1);color:var(--muted)}
footer.site .wrap{display:flex;flex-wrap:wrap;justify-content:space-between;gap:var(--space-3);padding-top:var(--space-5);padding-bottom:var(--space-5)}
footer.site ul{display:flex;flex-wrap:wrap;gap:var(--space-2) var(--space-4);list-style:none;margin:0;padding:0}
nav.sub ul{display:flex;flex-wrap:wrap;gap:var(--space-2) var(--space-4);list-style:none;padding:0 0 var(--space-2);margin:var(--space-4) 0;border-bottom:1px solid var(--border)}
nav.sub li.me{margin-left:auto}nav.sub a{font-weight:600;text-decoration:none}nav.sub a[aria-current=page]{text-decoration:underline}`;

const FORMS = `input,select,textarea,button{font:inherit;color:inherit}
input[type=text],input[type=email],input[type=url],input[type=search],input[type=password],input:not([type]),select,textarea{width:100%;max-width:100%;padding:var(--space-2) var(--space-3);background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);min-width:0}
input[aria-invalid=true],select[aria-invalid=true]{border-color:var(--error-line);box-shadow:0 0 0 1px var(--error-line)}
button,.button{flex:none;max-width:100%;text-align:center;display:inline-flex;align-items:center;justify-content:center;gap:var(--space-2);padding:var(--space-2) var(--space-4);border-radius:var(--radius);border:1px solid var(--border);background:var(--surface);color:var(--text);font-weight:600;cursor:pointer;text-decoration:none;line-height:1.4}
button,header.site .button{white-space:nowrap}
button.primary,.button.primary{background:var(--accent);border-color:var(--accent);color:var(--on-accent)}button.primary:hover,.button.primary:hover{background:var(--accent-hover)}
button.danger{color:var(--error-text);border-color:var(--error-line)}
.field{margin:0 0 var(--space-4)}.field>label,.field>legend,.label{display:block;font-weight:600;margin-bottom:var(--space-1)}
.field .hint{display:block;font-size:var(--step--1);color:var(--muted);margin-top:var(--space-1)}
.field .field-error{display:block;color:var(--error-text);font-size:var(--step--1);font-weight:600;margin-top:var(--space-1)}
fieldset{border:1px solid var(--border);border-radius:var(--radius);padding:var(--space-3) var(--space-4);margin:0 0 var(--space-4);min-width:0}
fieldset label{display:flex;gap:var(--space-2);align-items:baseline;margin:var(--space-1) 0;font-weight:400}
.actions{display:flex;flex-wrap:wrap;gap:var(--space-2);align-items:center}form.inline{display:inline-block;margin:0}
.notice,.error,.success{border:1px solid;border-radius:var(--radius);padding:var(--space-3) var(--space-4);margin:0 0 var(--space-4)}
.notice{background:var(--notice-bg);border-color:var(--notice-line)}.error{background:var(--error-bg);border-color:var(--error-line)}.success{background:var(--ok-bg);border-color:var(--ok-line)}
.key{font-family:var(--mono)}`;

const CONTENT = `.panel{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius-lg);padding:var(--space-4) var(--space-5);margin:0 0 var(--space-5);box-shadow:var(--shadow)}
.panel>h2:first-child,.panel>h3:first-child{margin-top:0}
table{border-collapse:collapse;width:100%}.word{overflow-wrap:normal}th,td{text-align:left;padding:var(--space-2) var(--space-3);border-bottom:1px solid var(--border);vertical-align:top}th{font-size:var(--step--1);color:var(--muted)}
@media (max-width:40rem){table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}table.stack tr{border:1px solid var(--border);border-radius:var(--radius);margin:0 0 var(--space-3);padding:var(--space-2) 0;background:var(--surface)}
table.stack td{border:0;padding:var(--space-1) var(--space-3)}table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600;color:var(--muted)}}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:var(--space-1) var(--space-4)}dl.facts dt{font-weight:600;color:var(--muted)}dl.facts dd{margin:0}
ol.timeline{list-style:none;padding:0;border-left:2px solid var(--border);margin-left:var(--space-2)}ol.timeline li{position:relative;padding:0 0 var(--space-3) var(--space-4)}
ol.timeline li::before{content:"";position:absolute;left:-7px;top:.5em;width:12px;height:12px;border-radius:50%;background:var(--accent)}
.status{display:inline-block;font-weight:700;font-size:var(--step--1);padding:0 var(--space-2);border-radius:999px;background:var(--chip-bg);color:var(--chip-text)}
.status.live{background:var(--ok-bg);color:var(--text)}.status.rejected,.status.crawl_failed{background:var(--error-bg);color:var(--error-text)}
.badge{display:inline-block;font-size:var(--step--1);font-weight:600;border-radius:999px;padding:0 var(--space-2);margin-left:var(--space-2);background:var(--feature-bg);color:var(--feature-text);vertical-align:middle}
.badge.sponsor{background:var(--sponsor-bg);color:var(--sponsor-text)}
.badge.verified{background:var(--surface);color:var(--text);border:1px solid var(--border)}
img.shot{border-radius:var(--radius);border:1px solid var(--border)}img.icon{width:20px;height:20px;vertical-align:middle;margin-right:var(--space-2);border-radius:4px}
img.avatar{width:48px;height:48px;vertical-align:middle;margin-right:var(--space-3);border-radius:var(--radius)}
textarea.embed{font:var(--step--1)/1.4 var(--mono)}
.mcp pre{overflow-wrap:anywhere;margin-top:0}ul.mcp-tools{padding-left:var(--space-4)}ul.mcp-tools li{margin:0 0 var(--space-2);overflow-wrap:anywhere}
section.sponsored{border:2px solid var(--sponsor-bg);border-radius:var(--radius-lg);padding:0 var(--space-4);margin:var(--space-4) 0}
ul.cards{list-style:none;padding:0;margin:var(--space-4) 0;display:grid;gap:var(--space-4);grid-template-columns:repeat(auto-fill,minmax(17rem,1fr))}
.card{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius-lg);overflow:hidden;display:flex;flex-direction:column;min-width:0;box-shadow:var(--shadow)}
.card img{display:block;width:100%;height:auto;aspect-ratio:40/21;object-fit:cover;background:var(--bg)}.card img.logo{object-fit:scale-down}
.card div{padding:var(--space-3) var(--space-4) var(--space-4)}.card h3{margin:0;font-size:var(--step-0)}.card h3 a{color:inherit}
.card p{margin:var(--space-1) 0;color:var(--muted);font-size:var(--step--1);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
ul.chips{list-style:none;padding:0;margin:var(--space-2) 0 0;display:flex;flex-wrap:wrap;gap:var(--space-1)}
ul.chips a,ul.chips span{display:inline-block;font-size:.75rem;padding:0 var(--space-2);border-radius:999px;background:var(--chip-bg);color:var(--chip-text);text-decoration:none}
ul.chips.nav a{font-size:var(--step--1);padding:var(--space-1) var(--space-3)}.count{font-weight:700}
nav.pager{display:flex;justify-content:space-between;gap:var(--space-4);margin:var(--space-4) 0}
.plans{display:grid;gap:var(--space-4);grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));margin:0 0 var(--space-5)}
.plan{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius-lg);padding:var(--space-4) var(--space-5);display:flex;flex-direction:column;box-shadow:var(--shadow)}
.plan h3{margin-top:0}.plan .price{font-size:var(--step-2);font-weight:800;margin:0}.plan ul{padding-left:var(--space-5);flex:1}.plan.highlight{border:2px solid var(--accent)}
.chart svg{width:100%;height:auto;max-width:44rem}
/* shop20: /pricing and /submit */
.plan .price .per{font-size:var(--step-0);font-weight:600;color:var(--muted)}
fieldset.field>label{font-weight:400;margin:var(--space-1) 0}
.choices{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:0 var(--space-4)}
.included{color:var(--text);background:var(--ok-bg);border-radius:999px;padding:0 var(--space-2);font-size:var(--step--1)}
/* apiref20: the API reference (/api/v1/docs): operations, nested field lists, the "Try it" forms */
.method{display:inline-block;font:700 var(--step--1)/1.6 var(--mono);padding:0 var(--space-2);border-radius:var(--radius);background:var(--chip-bg);color:var(--chip-text)}
section.op{border-top:1px solid var(--border);margin-top:var(--space-6)}section.op h4{font-size:var(--step-0);margin:var(--space-4) 0 var(--space-2)}
ul.fields{list-style:none;padding:0;margin:0 0 var(--space-3)}ul.fields ul.fields{padding-left:var(--space-4);border-left:2px solid var(--border);margin:var(--space-1) 0}ul.fields li{margin:var(--space-1) 0}
section.op small,ul.fields small{color:var(--muted)}section.op summary{cursor:pointer;font-weight:600}section.op details{margin:var(--space-1) 0 var(--space-3)}
form.try{max-width:var(--narrow)}form.try button{white-space:normal;overflow-wrap:anywhere}form.try input[type=number]{width:100%;padding:var(--space-2) var(--space-3);background:var(--surface);border:1px solid var(--border);border-radius:var(--radius)}`;

/** The whole stylesheet, tokens first. */
export const STYLESHEET = `${TOKENS}\n${BASE}\n${CHROME}\n${FORMS}\n${CONTENT}\n${STATS_CHART_CSS}\n${SUBMIT_STEP_CSS}\n`;

let path: string | undefined;
/** `/assets/site.{first 16 hex of sha256}.css`, computed once per isolate on first use. */
export function stylesheetPath(): string {
  path ??= `/assets/site.${bytesToHex(sha256(utf8ToBytes(STYLESHEET))).slice(0, 16)}.css`;
  return path;
}

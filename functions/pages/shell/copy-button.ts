/**
 * The one script of the copy buttons (the badge snippet, a new API key): buttons marked `data-copy="{id}"`
 * start hidden and this reveals them; without script the text is still there to select by hand. Fixed text:
 * the page's CSP allows it by its hash and nothing else.
 */
export const COPY_SCRIPT = `for(const b of document.querySelectorAll('button[data-copy]')){const t=document.getElementById(b.dataset.copy);b.hidden=false;b.addEventListener('click',async()=>{try{await navigator.clipboard.writeText(t.value)}catch{t.select();document.execCommand('copy')}b.textContent='Copied'})}`;

/**
 * The one script of the copy buttons (the badge snippet, a new API key): buttons marked `data-copy="{id}"`
 * start hidden and this reveals them; without script the text is still there to select by hand. The source is a
 * text field (its value) or any other element (its text: the API reference's curl commands in <pre>). Fixed text:
 * the page's CSP allows it by its hash and nothing else.
 */
export const COPY_SCRIPT = `for(const b of document.querySelectorAll('button[data-copy]')){const t=document.getElementById(b.dataset.copy);b.hidden=false;b.addEventListener('click',async()=>{try{await navigator.clipboard.writeText(t.value??t.textContent)}catch{if(t.select)t.select();else getSelection().selectAllChildren(t);document.execCommand('copy')}b.textContent='Copied'})}`;

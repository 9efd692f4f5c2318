/**
 * The one stylesheet of the pages for people, inlined by the layout (the CSP allows inline styles
 * and nothing from elsewhere: no web fonts, no scripts). System fonts; one column that narrows to
 * a 390 px phone; wide tables stack their rows; focus always visible.
 */
export const SITE_STYLESHEET = `
:root{--text:#111827;--muted:#4b5563;--line:#e5e7eb;--surface:#f8fafc;--accent:#1d4ed8;--accent-dark:#1e3a8a;--code:#f1f5f9;--focus:#f59e0b;color-scheme:light}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--text);background:#fff;overflow-wrap:break-word}
a{color:var(--accent);text-underline-offset:.15em}a:hover{color:var(--accent-dark)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:2px}
.container{max-width:60rem;margin:0 auto;padding-left:1rem;padding-right:1rem}
.skip-link{position:absolute;left:1rem;top:-4rem;z-index:10;padding:.5rem 1rem;background:#fff;color:var(--accent);border:2px solid var(--accent);border-radius:.375rem}
.skip-link:focus{top:.5rem}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0}
.site-header{background:var(--surface);border-bottom:1px solid var(--line)}
.site-header .container{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.25rem 1.5rem;padding-top:.5rem;padding-bottom:.5rem}
.brand{display:inline-flex;align-items:center;gap:.5rem;padding:.35rem 0;font-weight:700;font-size:1.05rem;color:var(--text);text-decoration:none}
.brand:hover{color:var(--accent-dark)}.brand img{display:block}
.site-nav ul{display:flex;flex-wrap:wrap;gap:0 1.25rem;margin:0;padding:0;list-style:none}
.site-nav a{display:inline-block;padding:.45rem 0;color:var(--text);text-decoration:none;border-bottom:2px solid transparent}
.site-nav a:hover{color:var(--accent);border-bottom-color:currentColor}
.site-nav a[aria-current=page]{color:var(--accent);font-weight:600;border-bottom-color:currentColor}
main{display:block;padding-top:1.5rem;padding-bottom:3rem}
main:focus{outline:none}
h1,h2,h3,h4{line-height:1.25}
h1{font-size:clamp(1.6rem,1.25rem + 1.6vw,2.1rem);margin:.25rem 0 .75rem}
h2{font-size:1.35rem;margin:2.5rem 0 .75rem;padding-bottom:.3rem;border-bottom:1px solid var(--line)}
h3{font-size:1.1rem;margin:1.75rem 0 .4rem}
h4{font-size:.95rem;margin:1rem 0 .3rem;color:var(--muted)}
p,ul,ol{margin:.6rem 0}ul,ol{padding-left:1.4rem}li{margin:.2rem 0}
.lead{font-size:1.1rem;color:var(--muted)}
code{font:.88em/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);padding:.05rem .3rem;border-radius:.25rem}
section{scroll-margin-top:1rem}
table{border-collapse:collapse;width:100%;margin:.75rem 0;font-size:.94rem}
th,td{text-align:left;vertical-align:top;padding:.4rem .6rem;border-bottom:1px solid var(--line)}
th{font-weight:600;background:var(--surface)}
@media (max-width:40rem){
table.stacking thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
table.stacking,table.stacking tbody,table.stacking tr,table.stacking td{display:block;width:100%}
table.stacking tr{padding:.5rem 0;border-bottom:1px solid var(--line)}
table.stacking td{padding:.1rem 0;border:0}
table.stacking td:first-child{font-weight:600}
table.stacking td:empty{display:none}
}
.search-form{display:flex;flex-wrap:wrap;gap:.5rem;margin:1.25rem 0}
.search-form input{flex:1 1 10rem;min-width:0;padding:.55rem .75rem;font:inherit;color:inherit;background:#fff;border:1px solid #94a3b8;border-radius:.375rem}
button{padding:.55rem 1.1rem;font:inherit;font-weight:600;color:#fff;background:var(--accent);border:1px solid var(--accent);border-radius:.375rem;cursor:pointer}
button:hover{background:var(--accent-dark)}
.site-footer{border-top:1px solid var(--line);background:var(--surface);color:var(--muted);font-size:.92rem}
.site-footer .container{padding-top:1.25rem;padding-bottom:2rem}
.site-footer ul{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;margin:.5rem 0 0;padding:0;list-style:none}
.muted{color:var(--muted)}
.toc ul{margin:.25rem 0}.toc>ul{columns:2 16rem;column-gap:2rem}.toc>ul>li{break-inside:avoid}
.op{margin-top:2rem;padding-left:1rem;border-left:3px solid var(--line)}
.op h3{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem}
.method{display:inline-block;min-width:3.8em;padding:.1em .4em;border-radius:3px;font:700 .78rem ui-monospace,monospace;text-align:center;text-transform:uppercase;color:#fff;background:#475569}
.method.get{background:#166534}.method.post{background:#1d4ed8}.method.put,.method.patch{background:#92400e}.method.delete{background:#b91c1c}
ul.props{margin:.25rem 0;padding-left:1.25rem;font-size:.94rem}
.type{font:.88em ui-monospace,monospace;color:#6d28d9}.type .type{font-size:1em}
.req{font-size:.8em;color:#b91c1c}
`;

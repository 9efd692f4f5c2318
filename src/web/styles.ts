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
@media (max-width:40rem){.site-nav{flex:1 1 100%}.site-nav ul{flex-wrap:nowrap;justify-content:space-between;gap:0 .75rem;white-space:nowrap}.site-header .container{padding-top:.25rem;padding-bottom:.25rem}}
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
code{font:.88em/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);padding:.05rem .3rem;border-radius:.25rem;overflow-wrap:anywhere}
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
table.stacking td[data-label]:not(:first-child)::before{content:attr(data-label) ": ";font-weight:600;color:var(--muted)}
table.stacking td.number{text-align:left}
}
input,select,textarea{font:inherit;color:inherit;background:#fff;border:1px solid #64748b;border-radius:.375rem;padding:.5rem .7rem;max-width:100%}
input[aria-invalid=true],select[aria-invalid=true]{border-color:#b91c1c;border-width:2px}
label{font-weight:600}
.field-row{display:flex;flex-wrap:wrap;gap:.5rem}
.field-row input{flex:1 1 12rem;min-width:0}
.search-form,.url-form{margin:1.25rem 0}
.url-form label{display:block;margin-bottom:.25rem}
.form-field+.form-field{margin-top:1rem}
.field-hint{margin:.1rem 0 .4rem;color:var(--muted);font-size:.92rem}
.field-error{margin:.3rem 0;color:#b91c1c;font-weight:600}
.filters{margin-top:.75rem}
.filters summary{cursor:pointer;font-weight:600;color:var(--accent);padding:.25rem 0}
.filter-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.75rem 1rem;margin-top:.5rem}
.field label{display:block;font-size:.92rem;margin-bottom:.15rem}
.field input,.field select{width:100%}
button{padding:.55rem 1.1rem;font:inherit;font-weight:600;color:#fff;background:var(--accent);border:1px solid var(--accent);border-radius:.375rem;cursor:pointer}
button:hover{background:var(--accent-dark)}
button:disabled{opacity:.6;cursor:progress}
.inline-form{margin:.75rem 0}
.progress{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:.75rem 0}
.progress[hidden]{display:none}
.notice{margin:1rem 0;padding:.75rem 1rem;border:1px solid var(--line);border-left-width:5px;border-radius:.375rem;background:var(--surface)}
.notice>:last-child{margin-bottom:0}
.notice-title{margin:0 0 .25rem;font-weight:700}
.notice-error{border-color:#b91c1c;background:#fef2f2}
.notice-warning{border-color:#b45309;background:#fffbeb}
.notice-success{border-color:#15803d;background:#f0fdf4}
.notice-info{border-color:var(--accent);background:#eff6ff}
.breadcrumb{margin:0;font-size:.92rem;color:var(--muted)}
.site-id{margin:.25rem 0;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;color:var(--muted)}
.verified{display:inline-block;padding:0 .45rem;font-size:.8rem;font-weight:600;color:#166534;border:1px solid #86efac;border-radius:1rem;background:#f0fdf4}
.facts{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem;margin:.5rem 0;font-size:.92rem}
.facts div{display:flex;gap:.4rem}
.facts dt{font-weight:600;color:var(--muted)}.facts dt::after{content:":"}
.facts dd{margin:0}
.results{list-style:none;padding:0;margin:1rem 0}
.result{display:flex;gap:1rem;justify-content:space-between;padding:1rem 0;border-bottom:1px solid var(--line)}
.result-main{min-width:0;flex:1}
.result h3{margin:0;font-size:1.15rem}
.result-name,.top-name{display:flex;align-items:center;gap:.5rem;min-width:0}
.site-icon{flex:none;display:inline-block;width:20px;height:20px;border-radius:4px}
.site-icon-fallback::before{content:attr(data-letter)}
.site-icon-fallback{display:inline-flex;align-items:center;justify-content:center;font-size:.75rem;font-weight:700;line-height:1;color:#334155;background:#e2e8f0}
h1 .site-icon{width:32px;height:32px}h1 .site-icon-fallback{font-size:1.1rem}
.result-domain{margin:.1rem 0;color:var(--muted);font-size:.92rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.result-description{margin:.3rem 0;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:3;line-clamp:3;overflow:hidden}
.result-score{flex:none;margin:0;min-width:4.5rem;text-align:center;align-self:flex-start;padding:.35rem .5rem;border-radius:.5rem;color:#fff}
.result-score .score-value{display:block;font-size:1.5rem;font-weight:700;line-height:1.1}
.result-score .score-of{font-size:.8rem}
.band-high{background:#15803d}.band-mid{background:#a16207}.band-low{background:#c2410c}.band-poor{background:#b91c1c}
.glance{display:flex;flex-wrap:wrap;gap:.3rem;list-style:none;padding:0;margin:.4rem 0;font-size:.82rem}
.glance li{margin:0;padding:.05rem .5rem;border-radius:1rem;border:1px solid var(--line)}
.glance .on{color:#14532d;background:#dcfce7;border-color:#86efac}
.glance .off{color:#4b5563;background:#f8fafc}
.glance a{color:inherit;text-decoration:none}.glance a:hover{text-decoration:underline}
input,select{min-height:2.75rem}
.pager{display:flex;justify-content:space-between;align-items:center;gap:1rem;margin:1.5rem 0}
.pager a{padding:.4rem .2rem}
.score-columns{display:grid;gap:0 2rem}
@media (min-width:48rem){.score-columns{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}}
.score-columns h3{margin-top:.5rem}
.score-card .score{margin:.25rem 0;font-weight:700}
.score-card .score-value{font-size:2.6rem;line-height:1}
.score-card .score-of{font-size:1.1rem;color:var(--muted)}
meter{display:block;width:100%;max-width:24rem;height:1rem}
.signals{list-style:none;padding:0;margin:0}
.signal{margin:1rem 0;padding:.75rem 1rem;border:1px solid var(--line);border-left-width:5px;border-radius:.375rem}
.signal h3{margin:0;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;justify-content:space-between}
.signal-present{border-left-color:#15803d}.signal-absent{border-left-color:#94a3b8}.signal-blocked{border-left-color:#b45309}.signal-error{border-left-color:#b91c1c}
.status{display:inline-block;padding:0 .55rem;border-radius:1rem;font-size:.85rem;font-weight:700;white-space:nowrap}
.status-present{color:#14532d;background:#dcfce7}.status-absent{color:#374151;background:#e5e7eb}.status-blocked{color:#78350f;background:#fef3c7}.status-error{color:#7f1d1d;background:#fee2e2}
.check-status-pass{color:#14532d;background:#dcfce7}.check-status-warn{color:#78350f;background:#fef3c7}.check-status-fail{color:#7f1d1d;background:#fee2e2}.check-status-neutral{color:#374151;background:#e5e7eb}.check-status-blocked{color:#78350f;background:#fef3c7}.check-status-error{color:#7f1d1d;background:#fee2e2}
.checks{list-style:none;padding:0}.check{border-left:4px solid #94a3b8;padding:.25rem 0 .25rem .75rem;margin:0 0 1.25rem}.check h4{margin:.2rem 0;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.check-pass{border-left-color:#15803d}.check-fail,.check-error{border-left-color:#b91c1c}.check-warn,.check-blocked{border-left-color:#b45309}
.kinds{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem 1rem}.kinds a[aria-current]{font-weight:700}
.refs{font-size:.92rem}
code.url{word-break:break-all}
.chart{margin:.5rem 0}
.chart svg{display:block;width:100%;max-width:30rem;height:auto}
.chart figcaption{font-size:.92rem;color:var(--muted)}
.choice-list{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}.choice-list a[aria-current]{font-weight:700;color:var(--text)}
.chart-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,17rem),1fr));gap:.5rem 1.5rem}
.chart-grid .chart figcaption{color:var(--text)}
.legend{list-style:none;padding:0;margin:.4rem 0;display:flex;flex-wrap:wrap;gap:.2rem 1rem}
.swatch{display:inline-block;width:.9rem;height:.9rem;margin-right:.35rem;vertical-align:-.1rem;border-radius:.15rem}
.swatch-0{background:#15803d}.swatch-1{background:#b45309}.swatch-2{background:#6d28d9}.swatch-3{background:#b91c1c}
td.number,th.number{text-align:right;font-variant-numeric:tabular-nums}td.number{white-space:nowrap}
textarea.snippet{display:block;width:100%;margin:.25rem 0 .75rem;font:.85rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;resize:vertical}
form.stack label{display:block;margin-bottom:.25rem}form.stack input[type=email]{width:100%;max-width:28rem}
.status-offer-active{color:#14532d;background:#dcfce7}.status-offer-draft{color:#1e3a8a;background:#dbeafe}.status-offer-paused{color:#374151;background:#e5e7eb}
.offer-form textarea{width:100%}.offer-form .field{margin:.6rem 0}.offer-form>.field input{width:100%}
.status-verified{color:#14532d;background:#dcfce7}.status-pending{color:#78350f;background:#fef3c7}.status-revoked{color:#374151;background:#e5e7eb}
button.secondary,a.button-link.secondary{color:var(--accent);background:#fff;border-color:var(--accent)}
button.secondary:hover,a.button-link.secondary:hover{color:#fff;background:var(--accent-dark)}
button.danger,a.button-link.danger{color:#fff;background:#b91c1c;border-color:#b91c1c}
button.danger:hover,a.button-link.danger:hover{background:#7f1d1d}
a.button-link{display:inline-block;padding:.55rem 1.1rem;font-weight:600;border:1px solid;border-radius:.375rem;text-decoration:none}
.actions{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}.actions .inline-form{margin:.25rem 0}
.session-bar{display:flex;flex-wrap:wrap;gap:0 1rem;align-items:center;justify-content:space-between}
.claim-facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:.5rem 1.5rem;margin:1rem 0}
.claim-facts dt{font-size:.85rem;font-weight:600;color:var(--muted)}.claim-facts dd{margin:0}
.notice-heading{margin:0 0 .25rem;padding:0;border:0;font-size:1.15rem}
.copy-field{margin:.75rem 0}.copy-field label{display:block;margin-bottom:.2rem}
input.mono{font:.9rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.copy-status{margin:.2rem 0;min-height:1.2em;font-size:.9rem;color:#166534}
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
.folded{padding-top:.1rem;padding-bottom:.1rem}
.signal.folded{padding:.35rem .75rem;margin:.4rem 0}
.check.folded{margin:0 0 .5rem}
.folded summary{cursor:pointer;list-style-position:outside;margin-left:1rem;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.folded details[open] summary{white-space:normal}
.folded-title{font-weight:600}
.folded-reason{color:var(--muted);font-size:.92rem}
.controls{margin:.25rem 0 .5rem;padding-left:.75rem;border-left:3px dashed #cbd5e1}
.controls p{margin:.2rem 0;font-size:.88rem}
.summary-facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem .75rem;margin:.75rem 0}
.summary-facts div{display:contents}
.summary-facts dt{font-weight:600;color:var(--muted)}
.summary-facts dd{margin:0}
.top-fixes{padding-left:1.4rem}.top-fixes li{margin:.35rem 0}
.effect{font-weight:600;color:#166534;white-space:nowrap}
.report-title{display:flex;align-items:center;gap:.6rem}
.home-title{font-size:clamp(1.4rem,1.1rem + 1.2vw,1.9rem);margin-bottom:.25rem}
.figures{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:.5rem;list-style:none;padding:0;margin:1rem 0}
.figures li{margin:0;padding:.6rem .75rem;border:1px solid var(--line);border-radius:.5rem;background:var(--surface);color:var(--muted);font-size:.88rem;line-height:1.35}
.figure{display:block;font-size:1.6rem;line-height:1.2;color:var(--text);white-space:nowrap}
@media (max-width:40rem){.figure{font-size:1.2rem}}
.glance-columns{display:grid;gap:0 2rem}
@media (min-width:48rem){.glance-columns{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}}
.share-table td,.share-table th{padding:.3rem .4rem}
.share-cell{white-space:nowrap;font-variant-numeric:tabular-nums}
.share-cell meter{display:inline-block;width:4.5rem;height:.8rem;vertical-align:middle}
.top-sites{list-style:none;padding:0;margin:.5rem 0}
.top-sites li{display:flex;align-items:center;justify-content:space-between;gap:.75rem;padding:.4rem 0;border-bottom:1px solid var(--line)}
.top-name{min-width:0;overflow-wrap:anywhere}
.top-score{flex:none;min-width:2.5rem;padding:.1rem .4rem;border-radius:.375rem;color:#fff;font-weight:700;text-align:center}
`;

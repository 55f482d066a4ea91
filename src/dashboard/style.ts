/**
 * The dashboard's one style sheet, sent inline under the response's nonce (src/dashboard/headers.ts):
 * no file, font or CDN to fetch. A type scale of five steps, a spacing scale of seven, one palette
 * in two schemes (light, and dark by `prefers-color-scheme`) whose text pairs all reach WCAG AA
 * (4.5:1; borders of controls 3:1), real buttons and fields, a navigation that marks the current
 * page, and tables that become labelled cards on a phone. docs/design.md, "Dashboard".
 */
export const STYLE = `
:root {
  color-scheme: light dark;
  --bg: #f5f6f8; --surface: #ffffff; --sunken: #eef0f3; --text: #1c1f24; --muted: #5a6170;
  --border: #d8dce3; --control: #8b93a3;
  --accent: #2d4fc7; --accent-strong: #2443b0; --on-accent: #ffffff; --accent-soft: #e9eefc;
  --danger: #b42318; --on-danger: #ffffff; --danger-soft: #fdf1f0;
  --ok: #1d6b3b; --ok-soft: #ecf7f0; --warn: #8c5a00; --warn-soft: #fdf6e7;
  --chart-prev: #7b8cd6;
  --s1: .25rem; --s2: .5rem; --s3: .75rem; --s4: 1rem; --s5: 1.5rem; --s6: 2rem; --s7: 3rem;
  --step--1: .875rem; --step-0: 1rem; --step-1: 1.125rem; --step-2: 1.375rem; --step-3: 1.75rem;
  --radius: 6px; --radius-l: 10px;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  font: 100%/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", sans-serif;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #15171b; --surface: #1d2026; --sunken: #262a31; --text: #e8eaee; --muted: #a5acb8;
    --border: #343945; --control: #7d8596;
    --accent: #93a8ff; --accent-strong: #b3c2ff; --on-accent: #10162e; --accent-soft: #232b45;
    --danger: #ff9b91; --on-danger: #2a0d0a; --danger-soft: #2a1a1a;
    --ok: #7fd3a0; --ok-soft: #16241c; --warn: #f0c36b; --warn-soft: #2a2313;
    --chart-prev: #5f70b3;
  }
}
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font-size: var(--step-0); }
h1, h2, h3 { line-height: 1.25; margin: 0 0 var(--s3); }
h1 { font-size: var(--step-3); letter-spacing: -.01em; }
h2 { font-size: var(--step-2); margin-top: var(--s6); }
h3 { font-size: var(--step-1); }
p, ul, ol, dl, blockquote, pre, form { margin: 0 0 var(--s4); }
small, .muted { color: var(--muted); }
small { font-size: var(--step--1); }
a { color: var(--accent); text-underline-offset: .18em; }
a:hover { color: var(--accent-strong); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; border-radius: 2px; }
code, pre { font-family: var(--mono); font-size: .9em; }
code { background: var(--sunken); padding: .05em .3em; border-radius: 4px; overflow-wrap: break-word; }
pre { background: var(--sunken); border: 1px solid var(--border); border-radius: var(--radius);
  padding: var(--s3) var(--s4); white-space: pre-wrap; overflow-wrap: anywhere; }
pre code { background: none; padding: 0; }
blockquote { margin-left: 0; padding: var(--s3) var(--s4); border-left: 4px solid var(--accent);
  background: var(--surface); border-radius: 0 var(--radius) var(--radius) 0; }
blockquote p:last-child { margin-bottom: 0; }

/* the frame */
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.skip { position: absolute; left: -9999px; top: var(--s2); z-index: 2; background: var(--surface);
  padding: var(--s2) var(--s3); border-radius: var(--radius); }
.skip:focus { left: var(--s4); }
.top { background: var(--surface); border-bottom: 1px solid var(--border); }
.bar, .site, main { max-width: 68rem; margin: 0 auto; padding-left: var(--s4); padding-right: var(--s4); }
.bar { display: flex; flex-wrap: wrap; align-items: center; gap: var(--s2) var(--s4); padding-top: var(--s3); padding-bottom: var(--s3); }
.brand { display: inline-flex; align-items: center; gap: var(--s2); font-weight: 700; font-size: var(--step-1);
  color: var(--text); text-decoration: none; }
.brand svg { width: 1.5rem; height: 1.5rem; fill: var(--accent); }
.org-name { color: var(--muted); font-weight: 600; overflow-wrap: anywhere; }
.account { margin: 0 0 0 auto; display: flex; flex-wrap: wrap; align-items: center; gap: var(--s2); }
.account .who { color: var(--muted); font-size: var(--step--1); overflow-wrap: anywhere; }
.site { display: flex; flex-wrap: wrap; gap: 0 var(--s5); padding-bottom: var(--s2); }
.site ul { display: flex; flex-wrap: wrap; gap: var(--s1); list-style: none; margin: 0; padding: 0; align-items: center; }
.site .group { color: var(--muted); font-size: var(--step--1); font-weight: 600; padding-right: var(--s1); }
.site a { display: inline-block; padding: .375rem .625rem; border-radius: var(--radius); color: var(--text);
  text-decoration: none; font-weight: 500; }
.site a:hover { background: var(--sunken); color: var(--text); }
.site a[aria-current=page] { background: var(--accent-soft); color: var(--accent); font-weight: 700;
  box-shadow: inset 0 -2px 0 var(--accent); }
main { padding-top: var(--s5); padding-bottom: var(--s7); }
main > p, .lead { max-width: 72ch; }
.lead { color: var(--muted); }

/* controls */
label { display: block; font-weight: 600; margin: var(--s3) 0 var(--s1); }
input, select, textarea { font: inherit; color: var(--text); background: var(--surface); border: 1px solid var(--control);
  border-radius: var(--radius); padding: .5rem .75rem; min-height: 2.625rem; width: 100%; max-width: 30rem; }
input::placeholder { color: var(--muted); opacity: 1; }
input:focus-visible, select:focus-visible, textarea:focus-visible { outline-offset: 0; border-color: var(--accent); }
input[type=hidden] { display: none; }
button, .button { font: inherit; font-weight: 600; line-height: 1.2; display: inline-flex; align-items: center;
  justify-content: center; gap: var(--s2); min-height: 2.625rem; padding: .5rem 1.125rem; border-radius: var(--radius);
  border: 1px solid var(--accent); background: var(--accent); color: var(--on-accent); cursor: pointer;
  text-decoration: none; vertical-align: middle; }
button:hover, .button:hover { background: var(--accent-strong); border-color: var(--accent-strong); color: var(--on-accent); }
button:active, .button:active { transform: translateY(1px); }
.secondary, a.secondary { background: var(--surface); color: var(--text); border-color: var(--control); }
.secondary:hover, a.secondary:hover { background: var(--sunken); color: var(--text); border-color: var(--control); }
.danger { background: var(--danger); border-color: var(--danger); color: var(--on-danger); }
.danger:hover { background: var(--danger); border-color: var(--danger); color: var(--on-danger); filter: brightness(.92); }
.danger-quiet, a.danger-quiet { background: var(--surface); color: var(--danger); border-color: var(--danger); }
.danger-quiet:hover, a.danger-quiet:hover { background: var(--danger-soft); color: var(--danger); border-color: var(--danger); }
.small { min-height: 2.25rem; padding: .25rem .75rem; font-size: var(--step--1); }
.actions { display: flex; flex-wrap: wrap; align-items: center; gap: var(--s3); margin: var(--s4) 0; }
form.inline { display: inline; margin: 0; }
.narrow { max-width: 30rem; }
.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 0 var(--s4); }
.filters > p { margin: 0; }
.filters > .actions { margin: var(--s4) 0 0; }
.filters > .actions, .filters > details, .filters > .wide { grid-column: 1 / -1; }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius-l);
  padding: var(--s4) var(--s5); margin: 0 0 var(--s5); }
.card > :last-child { margin-bottom: 0; }
.card > h2:first-child { margin-top: 0; }
details > summary { cursor: pointer; font-weight: 600; padding: var(--s2) 0; }
meter { width: 10rem; max-width: 100%; height: 1rem; vertical-align: middle; }

/* what happened */
.notice, .error, .warn { padding: var(--s3) var(--s4); border-radius: var(--radius); border-left: 4px solid;
  max-width: 72ch; }
.notice { background: var(--ok-soft); border-color: var(--ok); }
.error { background: var(--danger-soft); border-color: var(--danger); color: var(--danger); font-weight: 600; }
.warn { background: var(--warn-soft); border-color: var(--warn); }
.empty { border: 1px dashed var(--control); border-radius: var(--radius-l); padding: var(--s5); text-align: center;
  background: var(--surface); margin: 0 0 var(--s5); }
.empty .title { font-size: var(--step-1); font-weight: 700; margin-bottom: var(--s2); }
.empty p { margin-left: auto; margin-right: auto; max-width: 56ch; }
.empty > :last-child { margin-bottom: 0; }
.badge { display: inline-block; padding: .05rem .5rem; border-radius: 999px; font-size: var(--step--1); font-weight: 600;
  background: var(--sunken); color: var(--text); white-space: nowrap; }
.badge.ok { background: var(--ok-soft); color: var(--ok); }
.badge.accent { background: var(--accent-soft); color: var(--accent); }
.badge.danger { background: var(--danger-soft); color: var(--danger); }
.badge.warning { background: var(--warn-soft); color: var(--warn); border: 1px solid var(--warn); }
/* an entry's anchors, and its mark when a newer entry changed one of its paths (said, not coloured) */
.stale, .anchors { overflow-wrap: anywhere; }
.stale .badge { margin-right: var(--s1); }
.stale.warn .badge { background: var(--surface); }
.hits .anchors a { font-weight: 400; }

/* lists of things */
table { width: 100%; border-collapse: separate; border-spacing: 0; background: var(--surface);
  border: 1px solid var(--border); border-radius: var(--radius-l); margin: 0 0 var(--s5); }
caption { text-align: left; font-weight: 700; font-size: var(--step-1); padding: 0 0 var(--s2); }
th, td { text-align: left; padding: .625rem .75rem; border-bottom: 1px solid var(--border); vertical-align: top;
  overflow-wrap: break-word; }
td .button, td .badge { white-space: nowrap; }
th { font-size: var(--step--1); color: var(--muted); font-weight: 600; background: var(--sunken); }
thead th:first-child { border-top-left-radius: var(--radius-l); }
thead th:last-child { border-top-right-radius: var(--radius-l); }
tbody tr:last-child td { border-bottom: 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: var(--s2) var(--s5); }
dl.facts dt { color: var(--muted); font-weight: 600; }
dl.facts dd { margin: 0; }
ul.plain, ol.plain { list-style: none; padding: 0; }
.hits > li, .orgs > li { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius-l);
  padding: var(--s3) var(--s4); margin-bottom: var(--s3); }
.hits > li p { margin-bottom: var(--s1); }
.hits > li p:last-child { margin-bottom: 0; }
.hits a { font-weight: 600; }
.orgs > li.current { border-color: var(--accent); box-shadow: inset 4px 0 0 var(--accent); }
.steps li { margin-bottom: var(--s2); }
#secret { font-size: var(--step-1); word-break: break-all; }
.secret { display: flex; flex-wrap: wrap; gap: var(--s3); align-items: center; }

/* charts: server-rendered SVG, coloured from the palette */
figure { margin: 0 0 var(--s5); }
figure.chart { max-width: 46rem; background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius-l); padding: var(--s4); }
figure.chart svg { display: block; width: 100%; max-width: 44rem; height: auto; }
figcaption { color: var(--muted); font-size: var(--step--1); margin-top: var(--s2); }
.chart .grid { stroke: var(--border); stroke-width: 1; }
.chart .axis { fill: var(--muted); font-size: 12px; font-family: inherit; }
.chart .prev { fill: var(--chart-prev); }
.chart .day { fill: var(--accent); }
.chart .quota { stroke: var(--danger); stroke-width: 2; stroke-dasharray: 6 4; }
.chart .quota-label { fill: var(--danger); font-size: 12px; font-weight: 600; }
.legend { display: flex; flex-wrap: wrap; gap: var(--s2) var(--s4); list-style: none; padding: 0; margin: var(--s2) 0 0;
  font-size: var(--step--1); color: var(--muted); }
.legend li::before { content: ""; display: inline-block; width: .75rem; height: .75rem; margin-right: .375rem;
  vertical-align: -.05rem; border-radius: 2px; background: var(--swatch); }
.legend .prev { --swatch: var(--chart-prev); }
.legend .day { --swatch: var(--accent); }
.legend .quota { --swatch: var(--danger); }

/* a plan's board: a column per step status, stacked on a phone */
.board { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: var(--s3); margin: 0 0 var(--s5); }
.board .column { background: var(--sunken); border-radius: var(--radius-l); padding: var(--s3); border-top: 4px solid var(--control); }
.board .column.doing { border-top-color: var(--accent); }
.board .column.done { border-top-color: var(--ok); }
.board h3 { font-size: var(--step-0); text-transform: capitalize; margin-bottom: var(--s2); }
.board .count { color: var(--muted); font-weight: 500; }
.board .step { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius);
  padding: var(--s2) var(--s3); margin-bottom: var(--s2); overflow-wrap: anywhere; }
.board .step p { margin: 0; }
.board .claim { font-size: var(--step--1); color: var(--warn); margin-top: var(--s1); }
.board .column > p { margin: 0; font-size: var(--step--1); }

/* what changed between versions: never by colour alone (struck through, underlined, and said) */
.diff { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
del { background: var(--danger-soft); color: var(--danger); text-decoration: line-through 2px; }
ins { background: var(--ok-soft); color: var(--ok); text-decoration: underline 2px; text-underline-offset: .15em; }
.changes > li { margin-bottom: var(--s3); }
.changes > li > p:first-child { font-size: var(--step--1); margin-bottom: var(--s1); }

/* the ledger as a timeline: a line down the left, a dot per event */
.timeline { position: relative; margin-left: var(--s2); border-left: 2px solid var(--border); padding-left: 0; }
.timeline > li { position: relative; padding: 0 0 var(--s4) var(--s5); overflow-wrap: anywhere; }
.timeline > li::before { content: ""; position: absolute; left: calc(-1 * var(--s2) + 1px); top: .35rem; width: .75rem;
  height: .75rem; border-radius: 50%; background: var(--accent); border: 2px solid var(--bg); }
.timeline > li.broken::before { background: var(--danger); }
.timeline p { margin: 0 0 var(--s1); }
.timeline .when { font-size: var(--step--1); color: var(--muted); }
.chart .agent { fill: var(--text); font-weight: 600; }

/* a phone: tables become one labelled card per row, lists of facts one column */
@media (max-width: 47.99rem) {
  h1 { font-size: var(--step-2); }
  .account { margin-left: 0; width: 100%; justify-content: space-between; }
  .site { gap: 0; }
  .site ul { gap: 0; }
  .site a { padding: .3rem .375rem; font-size: var(--step--1); }
  table, caption, thead, tbody, tr, th, td { display: block; }
  table { border: 0; background: none; }
  thead { display: none; }
  tr { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius-l);
    padding: var(--s2) var(--s3); margin-bottom: var(--s2); }
  td { border: 0; padding: .2rem 0 .2rem 7.5rem; position: relative; min-height: 1.9rem; }
  td:empty { display: none; }
  td[data-label]::before { content: attr(data-label); position: absolute; left: 0; width: 7rem; color: var(--muted);
    font-weight: 600; font-size: var(--step--1); padding-top: .1rem; overflow-wrap: anywhere; }
  dl.facts { grid-template-columns: 1fr; gap: 0; }
  dl.facts dd { margin-bottom: var(--s3); }
  .card { padding: var(--s3) var(--s4); }
  /* the chart is drawn smaller on a phone: its labels are drawn larger to stay legible */
  .chart .axis, .chart .quota-label { font-size: 18px; }
  .board { grid-template-columns: 1fr; }
}
`;

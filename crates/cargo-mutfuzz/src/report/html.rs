//! Rendering a [`ReportModel`] as one self-contained HTML file: inline CSS, inline SVG plots
//! and a few lines of inline script (the status filter); no network, no other file.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use plotters::style::RGBColor;

use super::plot::line_chart;
use super::{Counts, Mode, ReportModel, ReportedMutant, Status};

/// Escape text for HTML element content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = r#"
:root{--killed:#2e7d32;--killed-bg:#e8f5e9;--survived:#c62828;--survived-bg:#ffebee;--timeout:#ef6c00;--timeout-bg:#fff3e0;--not-covered:#8d6e00;--not-covered-bg:#fff8e1;--unviable:#616161;--unviable-bg:#f1f1f1;--not-run:#5c6bc0;--not-run-bg:#e8eaf6}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#263238;color:#fff;padding:14px 24px}
header h1{margin:0;font-size:20px;font-weight:600}
header p{margin:2px 0 0;color:#cfd8dc;font-size:13px}
main{padding:8px 24px 40px;max-width:1400px}
h2{font-size:17px;margin:26px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
h3{font-size:15px;margin:18px 0 6px;font-family:ui-monospace,Menlo,Consolas,monospace}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:12px 0}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:110px}
.card .n{font-size:22px;font-weight:600}
.card.score .n{font-size:28px}
.card .l{font-size:12px;color:#666;text-transform:uppercase;letter-spacing:.03em}
table.sum{border-collapse:collapse;background:#fff;font-size:13px}
table.sum th,table.sum td{border:1px solid #e0e0e0;padding:3px 8px;text-align:right}
table.sum th{background:#f5f5f5}
table.sum td.name{text-align:left;font-family:ui-monospace,Menlo,Consolas,monospace}
.badge{display:inline-block;border-radius:3px;padding:0 6px;font-size:12px;font-weight:600;color:#fff}
.b-killed{background:var(--killed)}.b-survived{background:var(--survived)}.b-timeout{background:var(--timeout)}
.b-not-covered{background:var(--not-covered)}.b-unviable{background:var(--unviable)}.b-not-run{background:var(--not-run)}
.plots{display:flex;flex-wrap:wrap;gap:12px}
.plots figure{margin:0;background:#fff;border:1px solid #ddd;border-radius:6px;padding:4px}
#filters{position:sticky;top:0;background:#fafafa;padding:6px 0;z-index:2}
#filters button{border:1px solid #bbb;background:#fff;border-radius:4px;padding:2px 8px;margin-right:4px;cursor:pointer;font:inherit;font-size:13px}
#filters button.off{opacity:.45;text-decoration:line-through}
.todo li{margin:2px 0}
.todo .fn{font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:600}
table.src{border-collapse:collapse;width:100%;background:#fff;border:1px solid #ddd;font:12.5px/1.45 ui-monospace,Menlo,Consolas,monospace}
table.src td{padding:0 8px;vertical-align:top}
table.src td.ln{color:#999;text-align:right;width:1%;user-select:none;border-right:1px solid #eee}
table.src td.code{white-space:pre-wrap;word-break:break-all}
tr.line.has{font-weight:600}
tr.s-killed td.code{background:var(--killed-bg)}tr.s-survived td.code{background:var(--survived-bg)}
tr.s-timeout td.code{background:var(--timeout-bg)}tr.s-not-covered td.code{background:var(--not-covered-bg)}
tr.s-unviable td.code{background:var(--unviable-bg)}tr.s-not-run td.code{background:var(--not-run-bg)}
tr.muts td{padding:2px 8px 6px}
.mutant{font:13px/1.4 system-ui,sans-serif;border-left:4px solid #ccc;margin:3px 0;padding:2px 8px;background:#fcfcfc}
.mutant.s-killed{border-color:var(--killed)}.mutant.s-survived{border-color:var(--survived)}
.mutant.s-timeout{border-color:var(--timeout)}.mutant.s-not-covered{border-color:var(--not-covered)}
.mutant.s-unviable{border-color:var(--unviable)}.mutant.s-not-run{border-color:var(--not-run)}
.mutant code{background:#eef;padding:0 3px;border-radius:2px}
.mutant code.input{white-space:pre-wrap;word-break:break-all}
.mutant .why{color:#555}
.outputs{display:grid;grid-template-columns:1fr 1fr;gap:6px;margin:4px 0}
.outputs div{min-width:0}
.outputs .h{font-size:11px;color:#666;text-transform:uppercase}
mark{background:#ffd54f;color:inherit}
pre{margin:0;padding:4px 6px;background:#f6f8fa;border:1px solid #e5e5e5;border-radius:3px;white-space:pre-wrap;word-break:break-all;font-size:12px;max-height:16em;overflow:auto}
body.hide-killed .mutant.s-killed,body.hide-survived .mutant.s-survived,body.hide-timeout .mutant.s-timeout,
body.hide-not-covered .mutant.s-not-covered,body.hide-unviable .mutant.s-unviable,body.hide-not-run .mutant.s-not-run{display:none}
footer{color:#888;font-size:12px;padding:0 24px 24px}
"#;

/// Toggles a status's mutants and shows how many are shown: the only script.
const SCRIPT: &str = r#"
(function(){
  var body=document.body;
  function count(){
    var n=document.querySelectorAll('.mutant').length,shown=0;
    document.querySelectorAll('.mutant').forEach(function(m){if(getComputedStyle(m).display!=='none')shown++;});
    document.getElementById('shown').textContent=shown+' of '+n+' mutants shown';
  }
  document.querySelectorAll('#filters button').forEach(function(b){
    b.addEventListener('click',function(){b.classList.toggle('off');body.classList.toggle('hide-'+b.dataset.status);count();});
  });
  count();
})();
"#;

impl ReportModel {
    /// The whole HTML document.
    pub fn to_html(&self) -> String {
        let mode = self.mode();
        let counts = self.counts();
        let mut h = String::with_capacity(64 * 1024);
        let title = format!("mutfuzz report: {}", self.subject);
        let _ = write!(
            h,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{}</title><style>{STYLE}</style></head>\n<body>\n<header><h1>{}</h1>",
            esc(&title),
            esc(&title)
        );
        for n in &self.notes {
            let _ = write!(h, "<p>{}</p>", esc(n));
        }
        h.push_str("</header>\n<main>\n");
        self.summary(&mut h, &counts, mode);
        self.todo(&mut h, mode);
        self.plots(&mut h);
        self.files(&mut h, mode);
        let _ = write!(
            h,
            "</main>\n<footer>Made by cargo-mutfuzz {} · one file, nothing loaded from elsewhere.</footer>\n\
             <script>{SCRIPT}</script>\n</body></html>\n",
            env!("CARGO_PKG_VERSION")
        );
        h
    }

    fn summary(&self, h: &mut String, counts: &Counts, mode: Mode) {
        h.push_str("<section id=\"summary\"><h2>Summary</h2><div class=\"cards\">");
        let score = counts.score().map_or("–".to_owned(), |s| format!("{s:.1}%"));
        let detected = match mode {
            Mode::Test => "caught + timeout",
            Mode::Score => "killed",
        };
        let _ = write!(
            h,
            "<div class=\"card score\" id=\"score\"><div class=\"n\">{score}</div><div class=\"l\">score: {} {detected} of {} viable</div></div>",
            counts.detected(),
            counts.scored()
        );
        for s in self.columns(counts) {
            let _ = write!(
                h,
                "<div class=\"card\" data-count=\"{}\"><div class=\"n\">{}</div><div class=\"l\"><span class=\"badge b-{}\">{}</span></div></div>",
                s.key(),
                counts.get(s),
                s.key(),
                s.label(mode)
            );
        }
        let _ = write!(
            h,
            "<div class=\"card\"><div class=\"n\">{}</div><div class=\"l\">mutants</div></div>",
            counts.total()
        );
        h.push_str("</div>");
        if mode == Mode::Score {
            let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
            for e in self.entries.iter().filter(|e| e.status == Status::Killed) {
                *kinds.entry(e.how.as_deref().unwrap_or("?")).or_default() += 1;
            }
            if !kinds.is_empty() {
                let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} by {k}")).collect();
                let _ = write!(h, "<p id=\"kill-kinds\">Killed: {}.</p>", esc(&list.join(", ")));
            }
        }
        let files: Vec<&String> = self.sources.keys().collect();
        self.table(
            h,
            "per-file",
            "File",
            mode,
            files.iter().map(|f| ((*f).clone(), self.counts_where(|e| &e.mutant.file == *f))),
        );
        let mut functions: BTreeMap<(String, String), ()> = BTreeMap::new();
        for e in &self.entries {
            functions.insert((e.mutant.file.clone(), e.mutant.function.clone()), ());
        }
        self.table(
            h,
            "per-function",
            "Function",
            mode,
            functions.keys().map(|(file, function)| {
                (
                    format!("{function} ({file})"),
                    self.counts_where(|e| &e.mutant.file == file && &e.mutant.function == function),
                )
            }),
        );
        h.push_str("</section>\n");
    }

    /// The statuses the summary shows: a fuzz target's timeouts are kills (counted by
    /// kind instead), and `not-run` only appears after an interrupted run.
    fn columns(&self, counts: &Counts) -> Vec<Status> {
        Status::ALL
            .into_iter()
            .filter(|&s| match s {
                Status::Timeout => self.mode() == Mode::Test,
                Status::NotRun => counts.get(s) > 0,
                _ => true,
            })
            .collect()
    }

    fn table(
        &self,
        h: &mut String,
        id: &str,
        what: &str,
        mode: Mode,
        rows: impl Iterator<Item = (String, Counts)>,
    ) {
        let columns = self.columns(&self.counts());
        let _ = write!(h, "<h3>{what}s</h3><table class=\"sum\" id=\"{id}\"><tr><th>{what}</th>");
        for &s in &columns {
            let _ = write!(h, "<th>{}</th>", s.label(mode));
        }
        h.push_str("<th>total</th><th>score</th></tr>");
        for (name, c) in rows {
            let _ = write!(h, "<tr><td class=\"name\">{}</td>", esc(&name));
            for &s in &columns {
                let _ = write!(h, "<td>{}</td>", c.get(s));
            }
            let score = c.score().map_or("–".to_owned(), |s| format!("{s:.0}%"));
            let _ = write!(h, "<td>{}</td><td>{score}</td></tr>", c.total());
        }
        h.push_str("</table>");
    }

    /// The survived mutants by function: what the tests or the corpus should catch next.
    fn todo(&self, h: &mut String, mode: Mode) {
        let mut by_fn: BTreeMap<(&str, &str), Vec<&ReportedMutant>> = BTreeMap::new();
        for e in self.entries.iter().filter(|e| e.status == Status::Survived) {
            by_fn.entry((&e.mutant.file, &e.mutant.function)).or_default().push(e);
        }
        let n: usize = by_fn.values().map(Vec::len).sum();
        let _ = write!(
            h,
            "<section id=\"todo\" class=\"todo\"><h2>To do: {n} {} mutants in {} functions</h2>",
            Status::Survived.label(mode),
            by_fn.len()
        );
        if by_fn.is_empty() {
            h.push_str("<p>None: every mutant that runs is killed.</p>");
        }
        h.push_str("<ul>");
        for ((file, function), entries) in &by_fn {
            let _ = write!(
                h,
                "<li><span class=\"fn\">{}</span> <span class=\"why\">({})</span><ul>",
                esc(function),
                esc(file)
            );
            for e in entries {
                let _ = write!(
                    h,
                    "<li class=\"todo-item\" data-id=\"{}\"><a href=\"#m{}\">{}:{}</a> {}</li>",
                    e.mutant.id,
                    e.mutant.id,
                    esc(&e.mutant.file),
                    e.mutant.span.start.line,
                    esc(&e.mutant.description)
                );
            }
            h.push_str("</ul></li>");
        }
        h.push_str("</ul></section>\n");
    }

    fn plots(&self, h: &mut String) {
        if self.mode() != Mode::Score {
            return;
        }
        h.push_str("<section id=\"plots\"><h2>Over time</h2>");
        if self.stats.is_empty() {
            h.push_str("<p>No <code>stats.csv</code>: the plots appear once the target has been fuzzed (<code>cargo mutfuzz fuzz</code>).</p></section>\n");
            return;
        }
        let series = |f: fn(&mutfuzz_contract::StatsRow) -> Option<u64>| -> Vec<(u64, u64)> {
            self.stats.iter().filter_map(|r| f(r).map(|v| (r.seconds, v))).collect()
        };
        h.push_str("<div class=\"plots\">");
        let charts = [
            ("Mutants killed", "mutants", series(|r| Some(r.mutants_killed)), RGBColor(46, 125, 50)),
            ("Corpus size", "inputs", series(|r| Some(r.corpus)), RGBColor(21, 101, 192)),
            ("Edge coverage", "edges", series(|r| r.edges), RGBColor(106, 27, 154)),
        ];
        for (title, what, points, color) in charts {
            match line_chart(title, what, &points, color) {
                Some(svg) => {
                    let _ = write!(h, "<figure class=\"plot\">{svg}</figure>");
                }
                None => {
                    let _ = write!(h, "<figure class=\"plot\"><p>{title}: not recorded</p></figure>");
                }
            }
        }
        h.push_str("</div></section>\n");
    }

    fn files(&self, h: &mut String, mode: Mode) {
        h.push_str("<section id=\"source\"><h2>Source</h2><div id=\"filters\">Show: ");
        let counts = self.counts();
        for s in Status::ALL {
            if counts.get(s) > 0 {
                let _ = write!(
                    h,
                    "<button data-status=\"{}\"><span class=\"badge b-{}\">{}</span> {}</button>",
                    s.key(),
                    s.key(),
                    s.label(mode),
                    counts.get(s)
                );
            }
        }
        h.push_str(" <span id=\"shown\"></span></div>");
        for (fi, (file, text)) in self.sources.iter().enumerate() {
            let mut by_line: BTreeMap<usize, Vec<&ReportedMutant>> = BTreeMap::new();
            for e in self.entries.iter().filter(|e| &e.mutant.file == file) {
                by_line.entry(e.mutant.span.start.line).or_default().push(e);
            }
            let c = self.counts_where(|e| &e.mutant.file == file);
            let _ = write!(
                h,
                "<h3 id=\"f{fi}\">{} <span class=\"why\">— {} mutants, {} {}</span></h3>",
                esc(file),
                c.total(),
                c.get(Status::Survived),
                Status::Survived.label(mode)
            );
            h.push_str("<table class=\"src\">");
            let lines: Vec<&str> = match text {
                Some(t) => t.lines().collect(),
                None => Vec::new(),
            };
            if text.is_none() {
                let _ =
                    write!(h, "<tr><td></td><td>(the file could not be read; its mutants follow)</td></tr>");
            }
            let last = lines.len().max(by_line.keys().next_back().copied().unwrap_or(0));
            for n in 1..=last {
                let here = by_line.get(&n);
                // The line takes the colour of its most pressing mutant (survived first).
                let worst = here.and_then(|es| es.iter().map(|e| e.status).min());
                let class = worst.map_or("line".to_owned(), |s| format!("line has s-{}", s.key()));
                let _ = write!(
                    h,
                    "<tr class=\"{class}\" id=\"L{fi}-{n}\"><td class=\"ln\">{n}</td><td class=\"code\">{}</td></tr>",
                    esc(lines.get(n - 1).copied().unwrap_or(""))
                );
                if let Some(es) = here {
                    h.push_str("<tr class=\"muts\"><td></td><td>");
                    for e in es {
                        mutant_html(h, e, mode);
                    }
                    h.push_str("</td></tr>");
                }
            }
            h.push_str("</table>");
        }
        h.push_str("</section>\n");
    }
}

fn mutant_html(h: &mut String, e: &ReportedMutant, mode: Mode) {
    let m = &e.mutant;
    let key = e.status.key();
    let _ = write!(
        h,
        "<div class=\"mutant s-{key}\" id=\"m{}\" data-id=\"{}\" data-status=\"{key}\"><span class=\"badge b-{key}\">{}</span> \
         <b>#{}</b> {}:{}: {}",
        m.id,
        m.id,
        e.status.label(mode),
        m.id,
        m.span.start.line,
        m.span.start.column,
        esc(&m.description)
    );
    if !m.original.is_empty() || !m.replacement.is_empty() {
        let _ = write!(
            h,
            " <span class=\"why\">(<code>{}</code> → <code>{}</code>)</span>",
            esc(&shorten(&m.original, 60)),
            esc(&shorten(&m.replacement, 60))
        );
    }
    match (mode, e.by.as_slice()) {
        (Mode::Test, []) => {}
        (Mode::Test, [test]) => {
            let _ = write!(h, "<div class=\"why kill\">caught by test {}</div>", esc(test));
        }
        (Mode::Test, tests) => {
            let _ = write!(h, "<div class=\"why kill\">caught by tests {}</div>", esc(&tests.join(", ")));
        }
        (Mode::Score, by) => {
            if let Some(how) = &e.how {
                let on = by.first().map_or(String::new(), |input| format!(" on input {input}"));
                let _ = write!(h, "<div class=\"why kill\">killed by {}{}", esc(how), esc(&on));
                if let Some(value) = &e.input_value {
                    // The start says what the input is; `cargo mutfuzz run` shows all of it.
                    let _ = write!(h, ": <code class=\"input\">{}</code>", esc(&shorten(value, 240)));
                }
                h.push_str("</div>");
            }
        }
    }
    if let Some((original, mutant)) = &e.outputs {
        let _ = write!(
            h,
            "<div class=\"outputs\"><div><div class=\"h\">original</div><pre class=\"original\">{}</pre></div>\
             <div><div class=\"h\">mutant</div><pre class=\"mutant-output\">{}</pre></div></div>",
            esc(original),
            marked_from_difference(original, mutant)
        );
    }
    if let Some(detail) = &e.detail {
        let _ = write!(h, "<pre class=\"detail\">{}</pre>", esc(detail));
    }
    if let Some(note) = &e.amplified {
        let _ = write!(h, "<div class=\"why amplified\">{}</div>", esc(note));
    }
    h.push_str("</div>");
}

/// `text` cut to about `max` chars, with `…` when cut (a function body replaced whole).
fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

/// The mutant's output, escaped, with the part from the first char that differs from the
/// original's marked: long outputs often differ in one place.
fn marked_from_difference(original: &str, mutant: &str) -> String {
    let same = original
        .char_indices()
        .zip(mutant.chars())
        .find(|((_, a), b)| a != b)
        .map_or(original.len().min(mutant.len()), |((i, _), _)| i);
    // `same` is a char boundary of both: the prefixes are equal.
    let (head, rest) = mutant.split_at(same.min(mutant.len()));
    if rest.is_empty() { esc(mutant) } else { format!("{}<mark>{}</mark>", esc(head), esc(rest)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::mutant;

    #[test]
    fn every_mutant_is_shown_on_its_line_with_its_evidence_and_text_is_escaped() {
        let mut r = ReportModel {
            subject: "fuzz target sort".into(),
            mode: Some(Mode::Score),
            ..ReportModel::default()
        };
        let entry = |id, line, status, how: Option<&str>| ReportedMutant {
            mutant: mutant(id, "src/lib.rs", line, "sort"),
            status,
            how: how.map(str::to_owned),
            by: vec!["abc".into()],
            input_value: Some("[2, 1]".into()),
            outputs: None,
            detail: None,
            amplified: None,
            covered_by: Vec::new(),
            killed_by: Vec::new(),
        };
        let mut killed = entry(1, 2, Status::Killed, Some("output-differs"));
        killed.outputs = Some(("[1, 2]".into(), "<oops>".into()));
        let mut unviable = entry(3, 2, Status::Unviable, None);
        unviable.detail = Some("error[E0308]: expected `u8`".into());
        r.entries = vec![killed, entry(2, 3, Status::Survived, None), unviable];
        r.sources.insert("src/lib.rs".into(), Some("fn sort() {\n    a < b\n    x\n}\n".into()));
        let html = r.to_html();
        assert!(html.contains("<tr class=\"line has s-killed\" id=\"L0-2\">"), "{html}");
        assert!(html.contains("<tr class=\"line has s-survived\" id=\"L0-3\">"), "{html}");
        assert!(
            html.contains("killed by output-differs on input abc: <code class=\"input\">[2, 1]</code>"),
            "{html}"
        );
        assert!(html.contains("<pre class=\"original\">[1, 2]</pre>"), "{html}");
        assert!(html.contains("<pre class=\"mutant-output\"><mark>&lt;oops&gt;</mark></pre>"), "{html}");
        assert!(html.contains("<pre class=\"detail\">error[E0308]: expected `u8`</pre>"), "{html}");
        assert!(html.contains("<li class=\"todo-item\" data-id=\"2\">"), "{html}");
        assert!(html.contains("<div class=\"n\">50.0%</div>"), "{html}");
        assert_eq!(marked_from_difference("[1, 2, 3]", "[1, 2, 4]"), "[1, 2, <mark>4]</mark>");
        assert_eq!(marked_from_difference("[1, 2]", "[1, 2]"), "[1, 2]");
        assert_eq!(marked_from_difference("é1", "é2"), "é<mark>2</mark>");
        assert_eq!(shorten("abcdef", 3), "abc…");
        // Self-contained: nothing is fetched.
        for outside in ["src=", "href=\"http", "<link", "@import"] {
            assert!(!html.contains(outside), "{outside}");
        }
    }
}

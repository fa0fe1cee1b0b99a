//! The `info` line of the engine protocol, what a search reports: `info depth D score cp X|mate
//! N wdl W D L value V nodes N time MS pv T...`. The server writes it, the engine client reads
//! it back.

use std::time::Duration;

use fanorona_env::{SearchInfo, Wdl, WdlClass};

/// The win/draw/loss probabilities an `info` line shows: the agent's own, else a forced
/// result's, else its value `v` read as [`Wdl::from_value`] (the most drawish split with that
/// expectation); `None` without a value.
fn shown_wdl(info: &SearchInfo) -> Option<Wdl> {
    info.wdl.or_else(|| match info.mate_in {
        Some(n) if n > 0 => Some(Wdl::certain(WdlClass::Win)),
        Some(_) => Some(Wdl::certain(WdlClass::Loss)),
        None => info.value.map(Wdl::from_value),
    })
}

/// The `info` line for what a search reports: `info depth D score cp X|mate N wdl W D L value
/// V nodes N time MS pv T...` (`wdl` in permille of the mover's win, draw and loss, as UCI
/// engines print it; fields the agent does not give are left out).
pub fn info_line(info: &SearchInfo) -> String {
    let mut line = String::from("info");
    if let Some(depth) = info.depth {
        line.push_str(&format!(" depth {depth}"));
    }
    if let Some(mate) = info.mate_in {
        line.push_str(&format!(" score mate {mate}"));
    } else if let Some(cp) = info.centipieces {
        line.push_str(&format!(" score cp {cp}"));
    }
    if let Some(wdl) = shown_wdl(info) {
        let [w, d, l] = wdl.permille();
        line.push_str(&format!(" wdl {w} {d} {l}"));
    }
    if let Some(value) = info.value {
        line.push_str(&format!(" value {value:.3}"));
    }
    line.push_str(&format!(
        " nodes {} time {}",
        info.nodes,
        info.time.as_millis()
    ));
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&info.pv.join(" "));
    }
    line
}

/// Reads an `info` line's depth, score, value, nodes, time and pv; `None` if it has none of
/// them (an `info string`).
pub(crate) fn parse_info(line: &str) -> Option<SearchInfo> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.get(1) == Some(&"string") {
        return None;
    }
    let mut info = SearchInfo::default();
    let mut i = 1;
    while i < words.len() {
        let next = words.get(i + 1).copied().unwrap_or("");
        match words[i] {
            "depth" => info.depth = next.parse().ok(),
            "nodes" => info.nodes = next.parse().unwrap_or(0),
            "time" => info.time = Duration::from_millis(next.parse().unwrap_or(0)),
            "value" => info.value = next.parse().ok(),
            "wdl" => {
                let permille: Option<Vec<f32>> = words
                    .get(i + 1..i + 4)
                    .map(|w| w.iter().filter_map(|x| x.parse().ok()).collect());
                if let Some([w, d, l]) = permille.as_deref() {
                    info.wdl = Some(Wdl::from_array([w, d, l].map(|p| p / 1000.0)));
                }
                i += 2;
            }
            "score" => {
                let amount = words.get(i + 2).and_then(|w| w.parse().ok());
                match next {
                    "cp" => info.centipieces = amount,
                    "mate" => info.mate_in = amount,
                    _ => {}
                }
                i += 1;
            }
            "pv" => {
                info.pv = words[i + 1..].iter().map(|w| w.to_string()).collect();
                break;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    Some(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_read() {
        let info =
            parse_info("info depth 3 score cp -12 value -0.040 nodes 900 time 15 pv e2e3 d4e4")
                .unwrap();
        assert_eq!(info.depth, Some(3));
        assert_eq!(info.centipieces, Some(-12));
        assert_eq!(info.value, Some(-0.04));
        assert_eq!((info.nodes, info.time), (900, Duration::from_millis(15)));
        assert_eq!(info.pv, vec!["e2e3", "d4e4"]);
        let mate = parse_info("info depth 2 score mate -1 nodes 5 time 0").unwrap();
        assert_eq!((mate.mate_in, mate.centipieces), (Some(-1), None));
        assert_eq!(parse_info("info string hello"), None);
        let wdl = parse_info("info score cp 30 wdl 400 450 150 nodes 1 time 0").unwrap();
        assert_eq!(wdl.wdl, Some(Wdl::from_array([0.4, 0.45, 0.15])));
        assert_eq!(wdl.nodes, 1);
    }

    #[test]
    fn the_wdl_shown_is_the_agents_else_the_forced_results_else_the_values() {
        let mut info = SearchInfo {
            value: Some(0.25),
            ..SearchInfo::default()
        };
        assert!(
            info_line(&info).contains(" wdl 250 750 0 "),
            "{}",
            info_line(&info)
        );
        info.mate_in = Some(-3);
        assert!(info_line(&info).contains(" wdl 0 0 1000 "));
        info.wdl = Some(Wdl::from_array([0.1, 0.2, 0.7]));
        assert!(info_line(&info).contains(" wdl 100 200 700 "));
        assert!(!info_line(&SearchInfo::default()).contains("wdl"));
    }

    #[test]
    fn written_lines_are_read_back() {
        let info = SearchInfo {
            depth: Some(4),
            mate_in: Some(2),
            value: Some(0.5),
            wdl: Some(Wdl::from_array([0.6, 0.3, 0.1])),
            nodes: 1234,
            time: Duration::from_millis(56),
            pv: vec!["e2e3".into(), "d4e4".into()],
            ..SearchInfo::default()
        };
        assert_eq!(parse_info(&info_line(&info)), Some(info));
    }
}

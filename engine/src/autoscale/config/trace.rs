//! The CSV form of a recorded demand trace (`profile = "csv"`), read into
//! [`Workload::Trace`](super::Workload::Trace) values.

use super::MAX_TRACE_VALUES;

/// Parses a CSV file of demand values into a trace (minute 1 first), for
/// [`Workload::Trace`](super::Workload::Trace). Accepted format:
///
/// * UTF-8 text, fields separated by `,`, lines ending in `\n` or `\r\n` (a leading BOM is
///   ignored); spaces around fields are ignored;
/// * blank lines and lines starting with `#` are skipped;
/// * an optional header: the first line whose fields are all non-numbers (`demand`,
///   `minute,value`);
/// * then either one value per line (minutes 1, 2, 3, ... in order), or `minute,value` on
///   every line: whole minutes ≥ 1, strictly increasing; a minute left out holds the previous
///   value, and minutes before the first listed one take its value (the two forms do not
///   mix);
/// * every value a finite number ≥ 0 (percent of the capacity of `min_nodes` nodes); at
///   least one value and at most 527,040 minutes (366 days).
///
/// On error: the 1-based line and what is wrong there.
///
/// ```
/// use engine::autoscale::config::parse_metrics_csv;
/// assert_eq!(parse_metrics_csv("demand\n90\n70\n"), Ok(vec![90.0, 70.0]));
/// assert_eq!(parse_metrics_csv("minute,value\n2,90\n4,60\n"), Ok(vec![90.0, 90.0, 90.0, 60.0]));
/// assert_eq!(
///     parse_metrics_csv("1,90\n1,80\n"),
///     Err((2, "minutes must increase; got 1 after 1".to_owned()))
/// );
/// ```
pub fn parse_metrics_csv(text: &str) -> Result<Vec<f64>, (usize, String)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut values: Vec<f64> = Vec::new();
    // None until the first data line; then whether lines are `minute,value`.
    let mut paired: Option<bool> = None;
    let mut header_allowed = true;
    let mut last_minute = 0usize;
    let mut lines = 0usize;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        lines = line_no;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if header_allowed {
            header_allowed = false;
            if fields.iter().all(|f| f.parse::<f64>().is_err()) {
                continue;
            }
        }
        let pair = match fields.len() {
            1 => false,
            2 => true,
            n => {
                return Err((
                    line_no,
                    format!("expected `value` or `minute,value`; got {n} fields"),
                ))
            }
        };
        if paired.is_some_and(|p| p != pair) {
            return Err((
                line_no,
                "mixes `value` and `minute,value` lines; use one form".to_owned(),
            ));
        }
        paired = Some(pair);
        let text_value = if pair { fields[1] } else { fields[0] };
        let value = text_value
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| {
                (
                    line_no,
                    // Never the text itself: the file may be any file (an error shows
                    // only its path and line).
                    "value must be a finite number >= 0 (percent)".to_owned(),
                )
            })?;
        if !pair {
            if values.len() >= MAX_TRACE_VALUES {
                return Err((
                    line_no,
                    format!("at most {MAX_TRACE_VALUES} values (366 days of minutes)"),
                ));
            }
            values.push(value);
            continue;
        }
        let minute = fields[0]
            .parse::<usize>()
            .ok()
            .filter(|m| *m >= 1)
            .ok_or_else(|| (line_no, "minute must be a whole number >= 1".to_owned()))?;
        if minute <= last_minute {
            return Err((
                line_no,
                format!("minutes must increase; got {minute} after {last_minute}"),
            ));
        }
        if minute > MAX_TRACE_VALUES {
            return Err((
                line_no,
                format!("minute must be at most {MAX_TRACE_VALUES} (366 days); got {minute}"),
            ));
        }
        let hold = values.last().copied().unwrap_or(value);
        values.resize(minute - 1, hold);
        values.push(value);
        last_minute = minute;
    }
    if values.is_empty() {
        return Err((lines.max(1), "no value found".to_owned()));
    }
    Ok(values)
}

//! The font of plot text: `FANORONA_PLOT_FONT`, else a TrueType font at a common system path,
//! registered once.

use std::sync::OnceLock;

use plotters::style::FontStyle;

/// Where systems keep a sans-serif TrueType font.
const FONT_PATHS: [&str; 6] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
    "/Library/Fonts/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Registers a font for plot text once; whether one was found.
pub(super) fn font_available() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        let candidates = std::env::var("FANORONA_PLOT_FONT")
            .into_iter()
            .chain(FONT_PATHS.iter().map(|p| p.to_string()));
        for path in candidates {
            if let Ok(bytes) = std::fs::read(&path) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    return true;
                }
            }
        }
        false
    })
}

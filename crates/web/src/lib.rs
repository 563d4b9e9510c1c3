//! The web site's files, built into the binary so that `epaminondas serve`
//! is the whole site: one HTML page, its style sheet and its JavaScript
//! modules (plain modern JavaScript, no build step).
//!
//! The page holds no rules of the game: the server sends the board and the
//! legal moves with the squares each one touches, and the page draws them.
#![deny(missing_docs)]

/// One file of the site.
#[derive(Clone, Copy, Debug)]
pub struct Asset {
    /// Its path under `/assets/`, such as `js/app.js`.
    pub path: &'static str,
    /// Its media type, for the `Content-Type` header.
    pub content_type: &'static str,
    /// Its contents.
    pub body: &'static [u8],
}

macro_rules! assets {
    ($($path:literal => $content_type:expr,)*) => {
        /// Every file under `assets/` except the page itself.
        pub const ASSETS: &[Asset] = &[
            $(Asset {
                path: $path,
                content_type: $content_type,
                body: include_bytes!(concat!("../assets/", $path)),
            },)*
        ];
    };
}

const JS: &str = "text/javascript; charset=utf-8";

assets! {
    "style.css" => "text/css; charset=utf-8",
    "favicon.svg" => "image/svg+xml",
    "js/api.js" => JS,
    "js/app.js" => JS,
    "js/board.js" => JS,
    "js/dom.js" => JS,
    "js/lobby.js" => JS,
    "js/game.js" => JS,
    "js/account.js" => JS,
    "js/analysis.js" => JS,
    "js/mail.js" => JS,
    "js/vacation.js" => JS,
    "js/tournaments.js" => JS,
    "js/learn.js" => JS,
    "js/review.js" => JS,
    "js/puzzles.js" => JS,
}

/// The single HTML page: every path of the site (`/`, `/game/101`,
/// `/analysis`, ...) is answered with it, and its script draws the view
/// the path names.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");

/// The file at `path` (relative to `/assets/`), if the site has one.
pub fn asset(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Every file in `assets/` must be listed, or the site would miss it.
    #[test]
    fn every_file_in_the_assets_folder_is_served() {
        fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, base, out);
                } else {
                    let rel = path
                        .strip_prefix(base)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/");
                    out.push(rel);
                }
            }
        }
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let mut files = Vec::new();
        walk(&base, &base, &mut files);
        for file in files {
            assert!(
                file == "index.html" || asset(&file).is_some(),
                "assets/{file} is not listed in ASSETS"
            );
        }
    }

    #[test]
    fn the_page_loads_the_app_module() {
        assert!(INDEX_HTML.contains("/assets/js/app.js"));
        assert!(asset("js/app.js").is_some());
        assert!(asset("../Cargo.toml").is_none());
    }

    /// The modules import each other by relative path; every import must
    /// name a listed file.
    #[test]
    fn every_module_import_names_a_listed_file() {
        for a in ASSETS.iter().filter(|a| a.path.ends_with(".js")) {
            let text = std::str::from_utf8(a.body).unwrap();
            for line in text.lines().filter(|l| l.starts_with("import ")) {
                let target = line
                    .rsplit("from ")
                    .next()
                    .unwrap()
                    .trim_matches(|c| c == '"' || c == '\'' || c == ';' || c == ' ');
                let target = target.strip_prefix("./").expect("relative import");
                let path = format!("js/{target}");
                assert!(asset(&path).is_some(), "{} imports missing {path}", a.path);
            }
        }
    }
}

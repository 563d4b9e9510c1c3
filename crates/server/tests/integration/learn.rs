//! Learning over real HTTP: the guide to the rules and the lessons, with
//! every verdict made by the rules library.

use crate::common;

use common::Db;
use epaminondas_rules::{Position, Setup, Variant};
use reqwest::StatusCode;
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_guide_and_the_lessons_come_with_positions_and_verdicts() {
    let Some((server, _db)) = common::start(Db::Sqlite).await else {
        return;
    };
    let response = server
        .http
        .get(format!("{}/api/learn", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["cache-control"],
        "public, max-age=3600",
        "the same for everyone"
    );
    let learn: Value = response.json().await.unwrap();
    let sections = learn["sections"].as_array().unwrap();
    let ids: Vec<&str> = sections.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "board",
            "phalanx",
            "capture",
            "crossing",
            "symmetry",
            "crossings",
            "abanondas",
            "stumbling-blocks"
        ]
    );
    for section in sections {
        let state = &section["example"]["state"];
        let setup: Setup = state["position"].as_str().unwrap().parse().unwrap();
        let variant: Variant = state["variant"].as_str().unwrap().parse().unwrap();
        let pos = Position::from_setup_in(variant, &setup, variant.default_symmetry()).unwrap();
        assert_eq!(state["symmetry"], variant.default_symmetry().name());
        assert_eq!(
            state["legal"].as_array().unwrap().len(),
            pos.legal_moves().len()
        );
    }
    let forbidden = &sections[4]["example"]["forbidden"];
    assert_eq!(forbidden["move"], "c5-c6");
    assert!(
        forbidden["why"].as_str().unwrap().contains("symmetric"),
        "{forbidden}"
    );

    // Every legal move of every lesson has a verdict, and some are right.
    let lessons = learn["lessons"].as_array().unwrap();
    assert_eq!(lessons.len(), 5);
    for lesson in lessons {
        let legal: Vec<&str> = lesson["state"]["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap())
            .collect();
        let judged: Vec<&str> = lesson["verdicts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["move"].as_str().unwrap())
            .collect();
        assert_eq!(legal, judged, "{}", lesson["title"]);
        let right = lesson["verdicts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|v| v["correct"] == true)
            .count();
        assert!(right >= 1, "{}", lesson["title"]);
    }
}

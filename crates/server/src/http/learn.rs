//! Learning over HTTP: the guide to the rules with its example positions,
//! and the lessons with the verdict of every legal move (see
//! [`epaminondas_learn`]). The same for everyone and built once, so a
//! request costs no more than copying it out.

use std::sync::{Arc, OnceLock};

use axum::Router;
use axum::http::HeaderValue;
use axum::http::header::CACHE_CONTROL;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use epaminondas_learn::{GUIDE, LESSONS, Lesson, Section};
use epaminondas_rules::Position;
use serde_json::{Value, json};

use super::App;
use super::views::position_view;

/// The routes of this area.
pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/learn", get(learn))
}

/// `GET /api/learn`: the guide and the lessons.
async fn learn() -> Response {
    static BODY: OnceLock<String> = OnceLock::new();
    let body = BODY.get_or_init(|| learn_view().to_string());
    let mut response = (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body.clone(),
    )
        .into_response();
    response.headers_mut().insert(
        CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    response
}

fn section_view(section: &Section) -> Value {
    let example = section.example.map(|example| {
        let pos: Position = example
            .position()
            .expect("the guide's positions are checked by its tests");
        let forbidden = example.forbidden.map(|mv| {
            let why = pos
                .parse_move(mv)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            json!({"move": mv, "why": why})
        });
        json!({
            "caption": example.caption,
            "state": position_view(&pos),
            "forbidden": forbidden,
        })
    });
    json!({
        "id": section.id,
        "title": section.title,
        "paragraphs": section.paragraphs,
        "example": example,
    })
}

fn lesson_view(lesson: &Lesson) -> Value {
    let verdicts: Vec<Value> = lesson
        .verdicts()
        .into_iter()
        .map(|v| json!({"move": v.mv, "correct": v.correct, "says": v.says}))
        .collect();
    json!({
        "title": lesson.title,
        "task": lesson.task,
        "state": position_view(&lesson.start()),
        "verdicts": verdicts,
    })
}

/// The guide and the lessons as the page shows them.
pub fn learn_view() -> Value {
    json!({
        "sections": GUIDE.iter().map(section_view).collect::<Vec<_>>(),
        "lessons": LESSONS.iter().map(lesson_view).collect::<Vec<_>>(),
    })
}

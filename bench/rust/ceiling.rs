//! The HTTP ceiling for `bench/http.sh`: litewire's own HTTP serving (its worker
//! threads, hyper, axum), answering every `POST /` with the fixed JSON litewire
//! returns for the seed query, with no SQLite at all. Whatever litewire loses
//! against it is the engine.
//!
//! `cargo run --release --example ceiling -- 127.0.0.1:18181 '<json body to answer>'`

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::http::header;
use axum::routing::post;
use litewire::shutdown::{Shutdown, signal};
use litewire::workers::Workers;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:18181".to_owned());
    let answer: &'static str = Box::leak(
        args.next()
            .unwrap_or_else(|| "[]".to_owned())
            .into_boxed_str(),
    );
    let app = Router::new().route(
        "/",
        post(move |body: Bytes| async move {
            // Read and parse the request like the real server does.
            let parsed: Result<serde_json::Value, _> = serde_json::from_slice(&body);
            std::hint::black_box(parsed.is_ok());
            ([(header::CONTENT_TYPE, "application/json")], answer)
        }),
    );
    // The same threads as litewire: one worker per CPU, accepting on a current-thread
    // runtime; `CEILING_THREAD_PER_CORE=1` for litewire's `--thread-per-core`.
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per_core = std::env::var_os("CEILING_THREAD_PER_CORE").is_some_and(|v| v == "1");
    let workers = Arc::new(Workers::start(cpus, per_core)?);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let stop = signal();
        let listener = tokio::net::TcpListener::bind(&addr).await?;
        let (trigger, shutdown) = Shutdown::new();
        tokio::spawn(async move {
            stop.await;
            trigger.trigger();
        });
        litewire::http::serve_router(listener, app, workers, None, shutdown).await;
        Ok(())
    })
}

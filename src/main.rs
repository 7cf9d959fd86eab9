use std::io::IsTerminal;

use clap::Parser;
use litewire::config::{Command, Config, LogFormat};
use litewire::server::Server;
use litewire::shutdown::{Shutdown, signal};
use tracing_subscriber::EnvFilter;

/// Many small, short-lived allocations on every request, from every runtime
/// thread: mimalloc's per-thread heaps serve them without glibc's arena locking.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    without_huge_pages();
    let config = Config::parse();
    if let Some(Command::Passwd { name, role, md5 }) = &config.command {
        return match litewire::auth::passwd(name, role, *md5) {
            Ok(line) => {
                println!("{line}");
                std::process::ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("litewire passwd: {error}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    let mut runtime = tokio::runtime::Builder::new_current_thread();
    runtime.enable_all();
    match runtime.build() {
        Ok(runtime) => match &config.command {
            Some(Command::Dump { file }) => runtime.block_on(dump(&config, file.as_deref())),
            _ => runtime.block_on(serve(config)),
        },
        Err(error) => {
            eprintln!("litewire could not start its runtime: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// No transparent huge pages for this process, where the kernel would give
/// them unasked (`always`): a server whose memory is many small, scattered
/// allocations would hold 2 MiB for each 4 KiB it touched.
fn without_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE sets a flag of this process's memory map;
    // no memory is read or written. A kernel without it refuses, harmlessly.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// `litewire dump`: the script to `file`, or to standard output.
async fn dump(config: &Config, file: Option<&std::path::Path>) -> std::process::ExitCode {
    let written = match file {
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => litewire::pg::dump::dump(config, &mut std::io::BufWriter::new(file)).await,
            Err(error) => {
                eprintln!("litewire dump: {}: {error}", path.display());
                return std::process::ExitCode::FAILURE;
            }
        },
        None => {
            litewire::pg::dump::dump(config, &mut std::io::BufWriter::new(std::io::stdout())).await
        }
    };
    match written {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("litewire dump: {error}");
            // A dump cut short is no dump: nothing is left to restore by mistake.
            if let Some(path) = file {
                let _ = std::fs::remove_file(path);
            }
            std::process::ExitCode::FAILURE
        }
    }
}

async fn serve(config: Config) -> std::process::ExitCode {
    let stop = signal();
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(&config.log_level));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match config.log_format {
        LogFormat::Text => logs.with_ansi(std::io::stderr().is_terminal()).init(),
        // Each event's fields at the top level of its object, beside the
        // message, so that a log shipper reads them without unnesting.
        LogFormat::Json => logs
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .init(),
    }

    let server = match Server::bind(config).await {
        Ok(server) => server,
        Err(error) => {
            tracing::error!(%error, "litewire could not start");
            return std::process::ExitCode::FAILURE;
        }
    };
    let (trigger, shutdown) = Shutdown::new();
    tokio::spawn(async move {
        stop.await;
        tracing::info!("shutting down");
        trigger.trigger();
    });
    match server.run(shutdown).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "litewire failed");
            std::process::ExitCode::FAILURE
        }
    }
}

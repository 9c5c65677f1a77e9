fn main() -> std::process::ExitCode {
    regintel::cli::run()
}

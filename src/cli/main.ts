// The `weir` binary. Kept tiny: `--version` answers before anything else is loaded, so cold start stays
// close to bare node; the command table and the core load only for real commands.
declare const __WEIR_VERSION__: string;

// A reader that went away (`weir f list | head -1`) ends the command quietly with exit 0, as SIGPIPE ends
// other CLIs: node ignores SIGPIPE and would report the failed write as an error instead.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(0);
});

const argv = process.argv.slice(2);
if (argv.includes('--version') && !argv.includes('--')) {
  process.stdout.write(`${__WEIR_VERSION__}\n`);
} else {
  const { runCli } = await import('./run.js');
  const code = await runCli(argv, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd(), env: process.env });
  // Long-running commands (serve, logs -f) keep the process alive themselves and never return here.
  process.exitCode = code;
}
export {};

// `--help` (or `-h`) for every script of package.json: prints the comment that opens the script,
// which says what it does and how to call it, and exits before anything starts (a worker, a run).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Prints the opening `//` comment of the script at `moduleUrl` and exits 0 when help is asked for. */
export function helpIfAsked(moduleUrl, args = process.argv.slice(2)) {
  if (!args.includes('--help') && !args.includes('-h')) return;
  const lines = readFileSync(fileURLToPath(moduleUrl), 'utf8').split('\n');
  const help = [];
  for (const line of lines.slice(lines[0]?.startsWith('#!') ? 1 : 0)) {
    if (!line.startsWith('//')) break;
    help.push(line.replace(/^\/\/ ?/, ''));
  }
  console.log(help.join('\n').trim() || 'No help is written for this script.');
  process.exit(0);
}

// The demo's progress: a bar on stderr (redrawn in place on a terminal, one line per step otherwise), notes above
// it.

/** `[#####-----] 5/10 step name`: a bar of `width` cells for `done` of `total`. */
export function renderBar(done: number, total: number, label: string, width = 20): string {
  const safeTotal = Math.max(total, 1);
  const clamped = Math.min(Math.max(done, 0), safeTotal);
  const filled = Math.round((clamped / safeTotal) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${clamped}/${safeTotal} ${label}`;
}

export class Progress {
  private done = 0;
  private label = 'starting';
  private readonly tty = process.stderr.isTTY === true;
  constructor(private readonly total: number) {}
  step(label: string) {
    this.label = label;
    this.draw();
  }
  advance(label?: string) {
    this.done++;
    if (label) this.label = label;
    this.draw();
  }
  note(line: string) {
    if (this.tty) process.stderr.write('\r\x1b[2K');
    process.stderr.write(`  ${line}\n`);
    if (this.tty) this.draw();
  }
  finish() {
    this.done = this.total;
    this.label = 'done';
    this.draw();
    if (this.tty) process.stderr.write('\n');
  }
  private draw() {
    const line = renderBar(this.done, this.total, this.label);
    if (this.tty) process.stderr.write(`\r\x1b[2K${line}`);
    else process.stderr.write(`${line}\n`);
  }
}

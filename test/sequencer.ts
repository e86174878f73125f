// The order vitest starts test files in. With two workers the run ends when the last file does, so a slow file
// started near the end leaves one core idle meanwhile (the 66 s idle-gap suite, test/e2e/keep-alive-idle-gaps,
// is small and came last). Vitest orders by the durations of the previous run when it has them (a local
// rerun), otherwise by file size; CI starts from `npm ci`, with no durations. There the suites that wait on real
// processes (test/e2e/: servers, browsers, the CLI, deliberate idle gaps) and the fuzz suites (2,000 generated
// cases per endpoint) start first, each group by size, so the many short files fill the time at the end.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOW_FIRST = [/^test\/e2e\//, /^test\/functions\/fuzz\//];
const BROWSER = /^test\/e2e\/browser\//;

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const path = (file: TestSpecification) => relative(this.ctx.config.root, file.moduleId).replaceAll('\\', '/');
    const timed = (file: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${file.project.name}:${path(file)}`) !== undefined;
    if (ordered.every(timed)) return ordered;
    const slow = (file: TestSpecification) => SLOW_FIRST.some((pattern) => pattern.test(path(file)));
    // Chromium suites alternate with the other slow ones, so the two workers rarely run two browsers' worth of
    // axe-core at once (each test has 30 s; side by side on two loaded cores they came close to it).
    const browser = (file: TestSpecification) => BROWSER.test(path(file));
    const browserSuites = ordered.filter((file) => slow(file) && browser(file));
    const otherSlow = ordered.filter((file) => slow(file) && !browser(file));
    const alternated: TestSpecification[] = [];
    for (let i = 0; i < Math.max(browserSuites.length, otherSlow.length); i++) {
      if (browserSuites[i]) alternated.push(browserSuites[i]!);
      if (otherSlow[i]) alternated.push(otherSlow[i]!);
    }
    return [...alternated, ...ordered.filter((file) => !slow(file))];
  }
}

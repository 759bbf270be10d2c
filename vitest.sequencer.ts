import { statSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest first. Vitest orders files by the durations it recorded in its cache, which a fresh clone (CI) does not
 * have: the 60-second authorisation matrix could then start last and run alone while the other worker idles. A
 * file's size stands in for its duration (the big files are the matrix and the fuzzers); the recorded order, where
 * there is one, decides among files of the same size class.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const size = (file: TestSpecification) => {
      try {
        return Math.round(statSync(file.moduleId).size / 8192);
      } catch {
        return 0;
      }
    };
    return sorted
      .map((file, index) => ({ file, index, size: size(file) }))
      .sort((a, b) => b.size - a.size || a.index - b.index)
      .map(({ file }) => file);
  }
}

// Types of scripts/precompress.mjs for its tests (tests/build/precompress.test.ts, src/server/plugins/precompressed.test.ts).
export declare const PRECOMPRESSED_EXTENSIONS: string[];
export declare const PRECOMPRESS_MIN_BYTES: number;
export declare const COPY_SUFFIX: { br: '.br'; gzip: '.gz' };
export declare function filesToPrecompress(dir: string): string[];
export declare function precompressDir(dir: string): Promise<{ files: number; bytesIn: number; brBytes: number; gzBytes: number }>;

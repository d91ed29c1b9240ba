/** Types of feature-graph.js (plain JavaScript, so that the ESLint config loads it too). */
export declare const FEATURES_DIR: string;

export type Specifier = { specifier: string; line: number; typeOnly: boolean; valueNames: string[] };
export declare function specifiersOf(path: string, text: string): Specifier[];

export declare function featureOf(path: string, featuresDir?: string): string | undefined;

/** `file` and `target` relative to the features folder, with `/`. */
export type FeatureImport = {
  from: string;
  to: string;
  file: string;
  line: number;
  target: string;
  typeOnly: boolean;
};
export declare function featureImports(featuresDir?: string): FeatureImport[];

export type FeatureGraph = Map<string, Set<string>>;
export declare function featureGraph(imports: readonly FeatureImport[]): FeatureGraph;
export declare function importChain(graph: FeatureGraph, start: string, goal: string): string[] | null;
export declare function featureCycles(graph: FeatureGraph): string[][];

export declare function indexComponentExports(
  featuresDir?: string,
): { file: string; line: number; names: string[] }[];

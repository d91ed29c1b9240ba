export declare const sourceConditions: {
  resolve: { conditions: string[] };
  ssr: { resolve: { conditions: string[] } };
};
export declare const SOURCE_CONDITION_FLAG: string;

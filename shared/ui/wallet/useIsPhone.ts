import { Grid } from 'antd';

/** Below antd's md breakpoint (768 px): compact lists instead of tables. */
export function useIsPhone(): boolean {
  const screens = Grid.useBreakpoint();
  return screens.md === false;
}

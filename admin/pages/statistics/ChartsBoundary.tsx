import { Alert } from 'antd';
import { Component, type ReactNode } from 'react';

/**
 * A failure inside the chart library stays inside the charts: the tiles above keep working and
 * the staff member is told, instead of the whole screen giving way to the error page. The parent
 * gives it a new key when the range or period changes, which tries again.
 */
export class ChartsBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error('statistics charts failed', error);
  }

  render() {
    if (this.state.failed)
      return (
        <Alert
          type="warning"
          showIcon
          message="The charts could not be drawn. Change the range or reload the page to try again."
        />
      );
    return this.props.children;
  }
}

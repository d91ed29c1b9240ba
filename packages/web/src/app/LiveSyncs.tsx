import { AlertsLiveSync } from '../features/alerts/widgets.ts';
import { AutomationLiveSync } from '../features/automation/widgets.ts';
import { CustomersLiveSync } from '../features/customers/widgets.ts';
import { FlowboxLiveSync } from '../features/flowboxes/widgets.ts';
import { useOpenLive } from '../lib/live.ts';

/**
 * The features' app-wide live listeners, mounted once in the signed-in shell: a chunk loaded after
 * the first paint (issue 16), so the shell does not wait for their code. The channel opens once they
 * have subscribed (LiveProvider waitForListeners), so none misses a message or the first opening.
 */
export default function LiveSyncs() {
  useOpenLive();
  return (
    <>
      <FlowboxLiveSync />
      <AutomationLiveSync />
      <AlertsLiveSync />
      <CustomersLiveSync />
    </>
  );
}

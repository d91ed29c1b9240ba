import { ConsumptionCard } from '../../features/consumption/widgets.ts';
import { CustomerOverviewPage } from '../../features/customers/pages.ts';

/** A customer's page with its water. */
export function CustomerOverviewRoute() {
  return (
    <CustomerOverviewPage
      widgets={{
        consumption: (customer) => (
          <ConsumptionCard target={{ customerId: customer.id }} name={customer.name} />
        ),
      }}
    />
  );
}

/** UI texts of a plumber's screens (issue 18), EN (source) and FR. */
export const plumberwebEn = {
  /** The building's water card without its prices, for a plumber. */
  'plumberweb.section_water': 'Water',
  'plumberweb.subscription_by_manager':
    'The zone needs a subscription before pairing: ask the site’s manager to choose one.',
  'plumberweb.controls_hint':
    'As the installer, you can switch maintenance mode and run autotests; the valve and leak detection are the managers’.',
};

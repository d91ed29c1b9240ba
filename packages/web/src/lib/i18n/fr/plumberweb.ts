import type { plumberwebEn } from '../plumberweb.ts';

export const plumberwebFr: Record<keyof typeof plumberwebEn, string> = {
  'plumberweb.section_water': 'Eau',
  'plumberweb.subscription_by_manager':
    'La zone a besoin d’un abonnement avant l’appairage : demandez au gestionnaire du site d’en choisir un.',
  'plumberweb.controls_hint':
    'En tant qu’installateur, vous pouvez basculer le mode maintenance et lancer des autotests ; la vanne et la détection de fuite relèvent des gestionnaires.',
};

/**
 * The user documentation (the footer's "User documentation", /help), EN (source) and FR: what each
 * role does and the main tasks, as the screens and the server do them (docs/*.md hold the rules).
 * Each language must give every section: the type demands the same ids.
 */
export const GUIDE_SECTIONS = [
  'start',
  'provider',
  'customer',
  'site',
  'end_users',
  'pairing',
  'alerts',
  'automatic_closing',
  'schedules',
  'pricing',
  'firmware',
  'help',
] as const;
export type GuideSectionId = (typeof GUIDE_SECTIONS)[number];

export type GuideBlock = { p: string } | { steps: readonly string[] } | { list: readonly string[] };
export type GuideSection = { title: string; blocks: readonly GuideBlock[] };
export type Guide = Record<GuideSectionId, GuideSection>;

export const guideEn: Guide = {
  start: {
    title: 'Getting started',
    blocks: [
      {
        p: 'Flowbox Manager watches the water of buildings through flowboxes: meters with a valve fitted on a pipe. Everything is arranged as a tree: customer, site, building, floor and zone. A zone holds its flowbox, its water points, its scheduled closings, its automatic-closing settings and its subscription.',
      },
      {
        p: 'You receive your account by email: the invitation link lets you choose your password, and saving it signs you in. Afterwards, sign in with your email and password; "Forgot your password?" on the sign-in page sends a new link. The language switch in the header changes the interface and the language of your emails.',
      },
      {
        list: [
          'Dashboard: today’s figures, the flowboxes online and the open alerts of everything you may see.',
          'Alerts (with the count in the header): what needs someone now.',
          'My profile: your name, email, language, password and which alert emails you receive.',
          'Deleting anything asks you to type its name: what you delete cannot be recovered.',
        ],
      },
    ],
  },
  provider: {
    title: 'Provider managers',
    blocks: [
      { p: 'Provider (Flovea) managers run the service for every customer.' },
      {
        list: [
          'Customers: create a customer, then invite its first customer managers from its overview. Deleting a customer deletes its sites, buildings, zones and managers, and detaches its flowboxes.',
          'Flovea managers: invite colleagues and narrow their permissions.',
          'Subscriptions: create the pricing plans zones can choose (countries, currency, unit, price ranges) and follow every zone’s subscription.',
          'Alert settings: turn each alert category on or off, choose whether it is emailed, and whether it is for premium zones only.',
          'Email outbox: every email the product has sent, with its invitation and reset links, when the server keeps emails instead of sending them.',
          'Everything a customer manager does, for any customer.',
        ],
      },
      { p: 'Provider managers see alerts on screen; alert emails go to the customer and site managers.' },
    ],
  },
  customer: {
    title: 'Customer managers',
    blocks: [
      { p: 'Customer managers run one customer: its sites, buildings and zones, and its managers.' },
      {
        list: [
          'My customer: the customer’s contacts, its sites and its activity log.',
          'Sites: create sites, then invite site managers for them; narrow a manager’s permissions from the managers list (each permission is authorised or denied).',
          'Buildings and zones: address, time zone, volume unit and currency of each building; floors; zones with their profile, flowbox model and water.',
          'Set-up assistant: creates a site, a building and a zone step by step.',
          'Subscriptions: choose each zone’s pricing plan and service level (basic or premium).',
          'Flowboxes, alerts, automatic closing and scheduled closings of every zone of the customer.',
        ],
      },
    ],
  },
  site: {
    title: 'Site managers',
    blocks: [
      {
        p: 'Site managers look after the sites they are assigned to: their buildings, zones, flowboxes, alerts, automatic closing and scheduled closings. They read a zone’s subscription but do not choose it, and they do not create sites or managers. A customer manager may narrow what they can do (for example, no valve control).',
      },
      {
        p: 'Alert emails reach the site managers of the alert’s site; choose which categories you receive in My profile.',
      },
    ],
  },
  end_users: {
    title: 'End users and plumbers',
    blocks: [
      {
        p: 'End users are the occupants of a building fitted with a flowbox. The sign-in page has a registration form for them: a request is recorded, the person confirms the address from the link emailed to it and chooses the password there, then the request is reviewed; no account exists until it is accepted, and the answer comes by email. Their own screens are not available yet.',
      },
      {
        p: 'Plumbers will get their own list and map. For now, a manager puts a zone in maintenance mode while a plumber works, so that flushing pipes does not close the water: abnormal consumption is then only reported.',
      },
    ],
  },
  pairing: {
    title: 'Pairing a flowbox',
    blocks: [
      {
        p: 'A zone takes a flowbox once it has a subscription (the pairing window links to it). On the zone page, choose "Pair a flowbox"; the window walks through three steps.',
      },
      {
        steps: [
          'Prepare pairing: type the serial and the factory secret printed on the device’s label, and the floor where it is fitted.',
          'Pairing on the device: power the flowbox, check it can reach the network and put it in pairing mode. It announces itself to the server; the window moves on by itself, without reloading.',
          'Finalise pairing: compare what the device reported (model, water temperature sensor, versions) with what the zone expects, then validate. If they differ, refuse the device, or change the zone’s flowbox model or water first.',
        ],
      },
      {
        p: 'If the window is closed midway, the pairing stays prepared and can be continued later. Unpairing a flowbox (its page) disconnects it; its serial can then be paired again anywhere.',
      },
    ],
  },
  alerts: {
    title: 'Alerts and what to do',
    blocks: [
      {
        p: 'An alert belongs to a zone, and to a flowbox when a device is the cause. The same cause raises one alert and counts its repeats. Customer and site managers are emailed once per alert, in their language; leaks and abnormal consumption are emailed again every 30 minutes until someone silences or resolves them.',
      },
      {
        list: [
          'Leak detection or abnormal consumption: go and look now. Close the valve from the flowbox page if the water is not closed already.',
          'Abnormal consumption with automatic closing: the water is closed and the zone locked; see Automatic closing.',
          'Communication: the flowbox has sent nothing for 10 minutes. Check its power and network; the alert clears itself when it is heard again.',
          'Dysfunction: an autotest failed or the valve did not confirm a command. Run an autotest again from the flowbox page, or call a plumber.',
          'Internal status: enclosure humidity, a reboot after a fault, or the device clock off by more than two minutes.',
          'Water temperature: hot water below 50 °C (legionella risk), cold water at 3 °C or less (frost), or a device that reads hot water in a cold-water zone.',
          'Maintenance: the zone is in maintenance mode, so it is not watched as usual.',
        ],
      },
      {
        p: '"Silence" means "we know": no more emails, and the alert stays listed. "Resolve" closes it once the cause is fixed; some alerts resolve themselves when their cause clears. Alert settings let a provider manager choose the categories; My profile lets you choose your emails.',
      },
    ],
  },
  automatic_closing: {
    title: 'Automatic closing',
    blocks: [
      {
        p: 'Automatic closing watches each continuous flow in a zone against two margins you set on the zone page: a volume and a duration. Outside the opening hours the margins are halved. When a flow goes past a margin:',
      },
      {
        list: [
          'with automatic closing on, every flowbox of the zone closes its valve, the zone is locked and an alert is raised;',
          'with it off, or in maintenance mode, an alert is raised and the water stays open.',
        ],
      },
      {
        p: 'While a zone is locked, nothing under it can change: valves, modes, settings, schedules, subscription and pairing answer "No action allowed". To exit the lock:',
      },
      {
        steps: [
          'Find and fix the cause (a leak, a tap left running).',
          'On the zone page, choose "Exit automatic closing" and type the zone’s name to confirm.',
          'The valve stays closed: open it from the flowbox page when it is safe.',
        ],
      },
      {
        p: 'For one hour after exiting, abnormal volumes are not detected again, so the pipes can refill; leak alerts still are.',
      },
    ],
  },
  schedules: {
    title: 'Scheduled closings',
    blocks: [
      {
        p: 'A scheduled closing closes a zone’s water at a time and opens it again later, in the building’s time zone. On the zone page, choose "Add a scheduled closing": give a label, the start and end dates, the closing and opening times, and whether it repeats (daily, weekly on chosen days, or monthly, every N days, weeks or months). An opening time earlier than the closing time opens the next morning (22:00–06:00).',
      },
      {
        p: 'The zone must allow scheduled closings (zone settings). A scheduled opening never opens a zone locked by automatic closing. Deleting a schedule asks you to type its label.',
      },
    ],
  },
  pricing: {
    title: 'Pricing, subscriptions and costs',
    blocks: [
      {
        p: 'A pricing plan gives prices per unit of volume in ranges (tiers), for some countries, in one currency, billed monthly or annually. Tiers are graduated: each range bills only the volume inside it, so using more never costs less. A new price starts on a date; consumption before it keeps its old price.',
      },
      {
        p: 'Each zone subscribes to one plan offered in its building’s country and currency, at a service level: basic, or premium, which adds consumption details and the premium alerts. The subscription starts today and renews at the end of each period. When no plan is offered, the subscription page gives the provider’s contact.',
      },
      {
        p: 'The zone’s costs come from its consumption priced by its subscription’s tiers, in the building’s currency.',
      },
    ],
  },
  firmware: {
    title: 'Firmware updates',
    blocks: [
      {
        p: 'The provider uploads firmware images on the Firmware page: drop the file (named flowbox-{models}-{version}.bin, such as flowbox-one_inch_v1-2.5.0.bin) or choose it, check the version and models read from its name, write release notes in English and French, and release it to every customer or to some. A file whose name does not match is refused with "Firmware naming not correct". An image can later be deprecated (still usable, flagged) or withdrawn (no longer installable).',
      },
      {
        p: 'To update one flowbox, open its page: the Firmware card shows its versions, the update running with its progress, and its history with every state and time. "Update the firmware" lists the versions that fit it and asks before installing.',
      },
      {
        steps: [
          'To update many, choose "Roll out" on an image and pick the place: a zone, a building, a site, a customer, or (provider) the whole fleet; narrow it to some models or current versions.',
          'Set the waves (by default 5 %, 25 %, 50 %, then 100 % of the flowboxes), the random start delay, how many update at once and the share of failures that halts the rollout (10 % by default).',
          'Follow it on its page: the counts per state, a bar per wave, the states over time and each flowbox with its state and reason. Pause, resume or cancel it there.',
        ],
      },
      {
        p: 'A flowbox whose zone is locked by automatic closing, whose valve command is pending or that is offline is skipped, with the reason shown; during the building’s opening hours it waits unless you allowed it. When a wave fails beyond its threshold the rollout halts by itself and an alert is raised; a provider manager may resume it once the cause is understood.',
      },
    ],
  },
  help: {
    title: 'Getting help',
    blocks: [
      {
        p: 'The footer links to the service status and to support by email. Each customer, site, building and zone has an activity log saying who did what and when.',
      },
    ],
  },
};

export const guideFr: Guide = {
  start: {
    title: 'Premiers pas',
    blocks: [
      {
        p: 'Flowbox Manager surveille l’eau des bâtiments grâce aux flowbox : des compteurs munis d’une vanne, posés sur une canalisation. Tout est rangé en arbre : client, site, bâtiment, étage et zone. Une zone porte son flowbox, ses points d’eau, ses fermetures programmées, ses réglages de fermeture automatique et son abonnement.',
      },
      {
        p: 'Votre compte vous arrive par email : le lien d’invitation vous fait choisir votre mot de passe, et l’enregistrer vous connecte. Ensuite, connectez-vous avec votre email et votre mot de passe ; « Mot de passe oublié ? » sur la page de connexion envoie un nouveau lien. Le choix de langue de l’en-tête change l’interface et la langue de vos emails.',
      },
      {
        list: [
          'Tableau de bord : les chiffres du jour, les flowbox en ligne et les alertes ouvertes de tout ce que vous pouvez voir.',
          'Alertes (avec leur nombre dans l’en-tête) : ce qui demande quelqu’un maintenant.',
          'Mon profil : vos nom, email, langue, mot de passe et les emails d’alerte que vous recevez.',
          'Toute suppression demande de saisir le nom : ce qui est supprimé ne peut être récupéré.',
        ],
      },
    ],
  },
  provider: {
    title: 'Gestionnaires du fournisseur',
    blocks: [
      { p: 'Les gestionnaires du fournisseur (Flovea) font fonctionner le service pour tous les clients.' },
      {
        list: [
          'Clients : créez un client, puis invitez ses premiers gestionnaires client depuis sa fiche. Supprimer un client supprime ses sites, bâtiments, zones et gestionnaires, et détache ses flowbox.',
          'Gestionnaires Flovea : invitez des collègues et restreignez leurs permissions.',
          'Abonnements : créez les grilles tarifaires que les zones peuvent choisir (pays, devise, unité, tranches de prix) et suivez l’abonnement de chaque zone.',
          'Réglages des alertes : activez ou non chaque catégorie d’alerte, choisissez si elle est envoyée par email et si elle est réservée aux zones premium.',
          'Boîte d’envoi : chaque email envoyé par le produit, avec ses liens d’invitation et de réinitialisation, quand le serveur garde les emails au lieu de les envoyer.',
          'Tout ce que fait un gestionnaire client, pour n’importe quel client.',
        ],
      },
      {
        p: 'Les gestionnaires du fournisseur voient les alertes à l’écran ; les emails d’alerte vont aux gestionnaires client et de site.',
      },
    ],
  },
  customer: {
    title: 'Gestionnaires client',
    blocks: [
      {
        p: 'Les gestionnaires client font fonctionner un client : ses sites, bâtiments et zones, et ses gestionnaires.',
      },
      {
        list: [
          'Mon client : les contacts du client, ses sites et son journal d’activité.',
          'Sites : créez des sites, puis invitez leurs gestionnaires de site ; restreignez les permissions d’un gestionnaire depuis la liste des gestionnaires (chacune est autorisée ou refusée).',
          'Bâtiments et zones : adresse, fuseau horaire, unité de volume et devise de chaque bâtiment ; étages ; zones avec leur profil, leur modèle de flowbox et leur eau.',
          'Assistant de mise en service : crée un site, un bâtiment et une zone pas à pas.',
          'Abonnements : choisissez la grille tarifaire et le niveau de service (basique ou premium) de chaque zone.',
          'Flowbox, alertes, fermeture automatique et fermetures programmées de toutes les zones du client.',
        ],
      },
    ],
  },
  site: {
    title: 'Gestionnaires de site',
    blocks: [
      {
        p: 'Les gestionnaires de site s’occupent des sites qui leur sont attribués : leurs bâtiments, zones, flowbox, alertes, fermeture automatique et fermetures programmées. Ils consultent l’abonnement d’une zone sans le choisir, et ne créent ni sites ni gestionnaires. Un gestionnaire client peut restreindre ce qu’ils font (par exemple, pas de commande de vanne).',
      },
      {
        p: 'Les emails d’alerte parviennent aux gestionnaires du site de l’alerte ; choisissez les catégories que vous recevez dans Mon profil.',
      },
    ],
  },
  end_users: {
    title: 'Utilisateurs finaux et plombiers',
    blocks: [
      {
        p: 'Les utilisateurs finaux sont les occupants d’un bâtiment équipé d’un flowbox. La page de connexion leur propose un formulaire d’inscription : la demande est enregistrée, la personne confirme son adresse par le lien qui lui est envoyé et y choisit son mot de passe, puis la demande est examinée ; aucun compte n’existe avant son acceptation, et la réponse arrive par email. Leurs propres écrans ne sont pas encore disponibles.',
      },
      {
        p: 'Les plombiers auront leur liste et leur carte. En attendant, un gestionnaire met la zone en mode maintenance pendant l’intervention d’un plombier, pour que la purge des canalisations ne ferme pas l’eau : une consommation anormale est alors seulement signalée.',
      },
    ],
  },
  pairing: {
    title: 'Appairer un flowbox',
    blocks: [
      {
        p: 'Une zone accepte un flowbox une fois abonnée (la fenêtre d’appairage renvoie vers l’abonnement). Sur la page de la zone, choisissez « Appairer un flowbox » ; la fenêtre guide en trois étapes.',
      },
      {
        steps: [
          'Préparer l’appairage : saisissez le numéro de série et le secret d’usine imprimés sur l’étiquette de l’appareil, et l’étage où il est installé.',
          'Appairage sur l’appareil : mettez le flowbox sous tension, vérifiez qu’il joint le réseau et passez-le en mode appairage. Il s’annonce au serveur ; la fenêtre avance d’elle-même, sans recharger.',
          'Finaliser l’appairage : comparez ce que l’appareil a annoncé (modèle, capteur de température d’eau, versions) à ce qu’attend la zone, puis validez. S’ils diffèrent, refusez l’appareil, ou changez d’abord le modèle de flowbox ou l’eau de la zone.',
        ],
      },
      {
        p: 'Si la fenêtre est fermée en cours de route, l’appairage reste préparé et peut reprendre plus tard. Désappairer un flowbox (depuis sa page) le déconnecte ; son numéro de série peut ensuite être appairé ailleurs.',
      },
    ],
  },
  alerts: {
    title: 'Alertes et que faire',
    blocks: [
      {
        p: 'Une alerte appartient à une zone, et à un flowbox quand un appareil en est la cause. Une même cause lève une seule alerte et compte ses répétitions. Les gestionnaires client et de site reçoivent un email par alerte, dans leur langue ; fuites et consommations anormales sont rappelées toutes les 30 minutes jusqu’à ce que quelqu’un les mette en sourdine ou les résolve.',
      },
      {
        list: [
          'Détection de fuite ou consommation anormale : allez voir tout de suite. Fermez la vanne depuis la page du flowbox si l’eau n’est pas déjà fermée.',
          'Consommation anormale avec fermeture automatique : l’eau est fermée et la zone verrouillée ; voir Fermeture automatique.',
          'Communication : le flowbox n’a rien envoyé depuis 10 minutes. Vérifiez son alimentation et son réseau ; l’alerte se résout d’elle-même quand il se manifeste.',
          'Dysfonctionnement : un autotest a échoué ou la vanne n’a pas confirmé une commande. Relancez un autotest depuis la page du flowbox, ou appelez un plombier.',
          'État interne : humidité du boîtier, redémarrage après une panne, ou horloge de l’appareil décalée de plus de deux minutes.',
          'Température de l’eau : eau chaude sous 50 °C (risque de légionelle), eau froide à 3 °C ou moins (gel), ou appareil qui lit de l’eau chaude dans une zone d’eau froide.',
          'Maintenance : la zone est en mode maintenance, elle n’est donc pas surveillée comme d’habitude.',
        ],
      },
      {
        p: '« Mettre en sourdine » veut dire « nous savons » : plus d’emails, l’alerte reste listée. « Résoudre » la clôt une fois la cause réparée ; certaines alertes se résolvent d’elles-mêmes quand leur cause disparaît. Les réglages des alertes permettent au fournisseur de choisir les catégories ; Mon profil vous permet de choisir vos emails.',
      },
    ],
  },
  automatic_closing: {
    title: 'Fermeture automatique',
    blocks: [
      {
        p: 'La fermeture automatique compare chaque écoulement continu d’une zone à deux marges réglées sur la page de la zone : un volume et une durée. En dehors des heures d’ouverture, les marges sont divisées par deux. Quand un écoulement dépasse une marge :',
      },
      {
        list: [
          'fermeture automatique activée : chaque flowbox de la zone ferme sa vanne, la zone est verrouillée et une alerte est levée ;',
          'désactivée, ou en mode maintenance : une alerte est levée et l’eau reste ouverte.',
        ],
      },
      {
        p: 'Tant qu’une zone est verrouillée, rien ne peut y changer : vannes, modes, réglages, fermetures programmées, abonnement et appairage répondent « Aucune action autorisée ». Pour sortir du verrouillage :',
      },
      {
        steps: [
          'Trouvez et réparez la cause (une fuite, un robinet resté ouvert).',
          'Sur la page de la zone, choisissez « Sortir de la fermeture automatique » et saisissez le nom de la zone pour confirmer.',
          'La vanne reste fermée : ouvrez-la depuis la page du flowbox quand c’est sans danger.',
        ],
      },
      {
        p: 'Pendant l’heure qui suit la sortie, les volumes anormaux ne sont pas détectés, le temps que les canalisations se remplissent ; les alertes de fuite, si.',
      },
    ],
  },
  schedules: {
    title: 'Fermetures programmées',
    blocks: [
      {
        p: 'Une fermeture programmée ferme l’eau d’une zone à une heure et la rouvre plus tard, dans le fuseau horaire du bâtiment. Sur la page de la zone, choisissez « Ajouter une fermeture programmée » : donnez un libellé, les dates de début et de fin, les heures de fermeture et d’ouverture, et si elle se répète (chaque jour, chaque semaine les jours choisis, ou chaque mois, tous les N jours, semaines ou mois). Une heure d’ouverture avant l’heure de fermeture rouvre le lendemain matin (22:00–06:00).',
      },
      {
        p: 'La zone doit autoriser les fermetures programmées (réglages de la zone). Une ouverture programmée n’ouvre jamais une zone verrouillée par la fermeture automatique. Supprimer une fermeture programmée demande de saisir son libellé.',
      },
    ],
  },
  pricing: {
    title: 'Tarifs, abonnements et coûts',
    blocks: [
      {
        p: 'Une grille tarifaire donne des prix par unité de volume, par tranches, pour certains pays, dans une devise, facturés au mois ou à l’année. Les tranches sont progressives : chacune ne facture que le volume qui lui revient, si bien que consommer plus ne coûte jamais moins. Un nouveau prix commence à une date ; la consommation d’avant garde son ancien prix.',
      },
      {
        p: 'Chaque zone s’abonne à une grille proposée dans le pays et la devise de son bâtiment, à un niveau de service : basique, ou premium, qui ajoute le détail des consommations et les alertes premium. L’abonnement commence aujourd’hui et se renouvelle à la fin de chaque période. Quand aucune grille n’est proposée, la page d’abonnement donne le contact du fournisseur.',
      },
      {
        p: 'Les coûts de la zone viennent de sa consommation, valorisée par les tranches de son abonnement, dans la devise du bâtiment.',
      },
    ],
  },
  firmware: {
    title: 'Mises à jour du firmware',
    blocks: [
      {
        p: 'Le fournisseur téléverse les images de firmware depuis la page Firmware : déposez le fichier (nommé flowbox-{modèles}-{version}.bin, par exemple flowbox-one_inch_v1-2.5.0.bin) ou choisissez-le, vérifiez la version et les modèles lus dans son nom, écrivez les notes de version en anglais et en français, et mettez-le à disposition de tous les clients ou de certains. Un fichier dont le nom ne correspond pas est refusé avec « Nommage du firmware incorrect ». Une image peut ensuite être rendue obsolète (toujours utilisable, signalée) ou retirée (plus installable).',
      },
      {
        p: 'Pour mettre à jour un flowbox, ouvrez sa page : la carte Firmware montre ses versions, la mise à jour en cours avec sa progression, et son historique avec chaque état et son heure. « Mettre à jour le firmware » liste les versions qui lui conviennent et demande confirmation avant l’installation.',
      },
      {
        steps: [
          'Pour en mettre à jour beaucoup, choisissez « Déployer » sur une image et choisissez le lieu : une zone, un bâtiment, un site, un client, ou (fournisseur) tout le parc ; limitez-le à certains modèles ou versions actuelles.',
          'Réglez les vagues (par défaut 5 %, 25 %, 50 %, puis 100 % des flowbox), le délai de départ aléatoire, le nombre de mises à jour simultanées et la part d’échecs qui arrête le déploiement (10 % par défaut).',
          'Suivez-le sur sa page : les nombres par état, une barre par vague, les états au fil du temps et chaque flowbox avec son état et sa raison. Mettez-le en pause, reprenez-le ou annulez-le depuis cette page.',
        ],
      },
      {
        p: 'Un flowbox dont la zone est verrouillée par la fermeture automatique, dont une commande de vanne est en attente ou qui est hors ligne est ignoré, avec la raison affichée ; pendant les heures d’ouverture du bâtiment il attend, sauf si vous l’avez permis. Quand une vague échoue au-delà de son seuil, le déploiement s’arrête de lui-même et une alerte est levée ; un gestionnaire du fournisseur peut le reprendre une fois la cause comprise.',
      },
    ],
  },
  help: {
    title: 'Obtenir de l’aide',
    blocks: [
      {
        p: 'Le pied de page mène à l’état du service et au support par email. Chaque client, site, bâtiment et zone a un journal d’activité qui dit qui a fait quoi, et quand.',
      },
    ],
  },
};

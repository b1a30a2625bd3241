"""Web Push: the pushes owed (games.core.pushes) sent to the devices' push services
(``delivery``, ``sending``), the site's VAPID keys (``vapid``) and their start-up check
(``settings_checks``). Beside games.mail, not inside it: nothing is rendered, no ESP,
no tracking; a push service is another kind of provider with its own answers."""

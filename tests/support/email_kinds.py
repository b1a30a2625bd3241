"""Every kind of email a seat may be sent while its game is in play. The language
tests render each in both languages; the seat settings' tests check each one's plain
text says what its HTML shows."""

KINDS = ("start", "your_move", "round_over", "reminder", "decide", "offer", "deal", "welcome")
KINDS += ("resend", "digest", "paused", "resumed", "extended", "cancelled", "paused_itself")

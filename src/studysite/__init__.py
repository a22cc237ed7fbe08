"""The site's study features, built on the fixed shape of a question: self-test mode, the
corrections index, short answers on the review page, and the flash-card deck."""

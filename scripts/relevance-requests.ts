/**
 * The relevance benchmark's natural-language requests (scripts/bench-relevance.ts): what an
 * agent sends when it passes its user's request on as it was said, two for every judged intent
 * of scripts/relevance-judgements.ts, graded by that intent's grades (the same services serve the
 * same need however it is worded).
 *
 * Written in one sitting before any ranking was run on them and before any change to the
 * ranking or query understanding was made, then committed (the repository's history shows them
 * before the ranking that is measured with them). They are deliberately varied: first person,
 * questions, politeness, a purpose clause ("when the order ships"), 3 to 16 words, the words of
 * the need often not the words of the service ("text" for SMS, "money" for currency).
 *
 * The split into a tuning set and a held-out set is by intent (relevance-split.ts), so a short
 * query and the requests of one intent are always on the same side: nothing measured on the
 * held-out side was looked at while tuning.
 */
export const REQUESTS: Record<string, readonly [string, string]> = {
  "send sms": [
    "send a text message to my customer when the order ships",
    "I need an API to send SMS notifications to phone numbers",
  ],
  "text message": [
    "how can my app text people a verification code",
    "which service lets me send bulk text messages to a list of mobile numbers?",
  ],
  "transactional email": [
    "send a password reset email from my web application",
    "I want to send order confirmation emails to my users automatically",
  ],
  "e-mail validation": [
    "check whether an email address is real before I accept a sign up",
    "is there an API that verifies email addresses are deliverable?",
  ],
  geocoding: [
    "turn a street address into latitude and longitude",
    "I need to convert addresses to map coordinates for my delivery app",
  ],
  "weather forecast": [
    "what will the weather be tomorrow in Paris",
    "get the weather forecast for a city for the next few days",
  ],
  "currency exchange rates": [
    "I need an API that converts money between currencies",
    "what is the current exchange rate from euros to dollars?",
  ],
  "stock quotes": [
    "get the latest share price of a company on the stock market",
    "I want real time stock prices for my trading dashboard",
  ],
  payments: [
    "accept credit card payments on my online shop",
    "which service can charge my customers and handle refunds?",
  ],
  "translate text": [
    "translate this paragraph from English into Spanish",
    "I need machine translation of user reviews into several languages",
  ],
  "speech to text": [
    "which service can turn a meeting recording into a transcript?",
    "convert spoken audio files into written text",
  ],
  "text to speech": [
    "read my articles aloud with a natural sounding voice",
    "generate spoken audio from text for a voice assistant",
  ],
  "image recognition": [
    "tell me what objects are in a photo",
    "I want to automatically tag the pictures users upload with labels",
  ],
  "sentiment analysis": [
    "find out whether customer reviews are positive or negative",
    "analyse the mood of tweets about my brand",
  ],
  "url shortener": [
    "make a short link for a long web address",
    "I need to shorten URLs and count how many people click them",
  ],
  pdf: [
    "convert a web page or a word document into a PDF file",
    "generate PDF invoices from HTML templates in my backend",
  ],
  dns: [
    "update the DNS records of my domain from a script",
    "which provider lets me manage domain name server zones through an API?",
  ],
  whois: ["find out who registered a domain name and when it expires", "look up the owner of a website domain"],
  "ip geolocation": [
    "which country is a visitor in, from their IP address",
    "I need to locate users by IP to show local prices",
  ],
  "phone number validation": [
    "check that a phone number is valid before I save it",
    "is this mobile number real and which carrier does it belong to?",
  ],
  calendar: ["add an event to my calendar and invite my team", "read my upcoming meetings and appointments"],
  "video hosting": [
    "upload videos and stream them to viewers on my site",
    "I need somewhere to host and encode video for my online course",
  ],
  music: ["search for songs and albums by an artist", "play music and build playlists inside my app"],
  news: ["get the latest headlines about technology", "I want to show breaking news articles from many publishers"],
  recipes: [
    "find recipes I can cook with chicken and rice",
    "what can I make for dinner with the ingredients in my fridge",
  ],
  flights: [
    "book a flight from London to New York next week",
    "is my flight delayed? I need live flight status by flight number",
  ],
  "public transport": [
    "when does the next bus leave from my stop",
    "plan a journey by train and metro across the city",
  ],
  crm: [
    "keep track of my sales leads and customer contacts",
    "sync deals and contacts with our customer relationship management system",
  ],
  invoices: [
    "create an invoice and send it to a client",
    "I need to bill my customers every month and track unpaid invoices",
  ],
  "e-signature": [
    "have a contract signed online by two people",
    "send a document for electronic signature and know when it is signed",
  ],
  "password manager": [
    "store my team's passwords and share them safely",
    "where can my app keep secrets and API keys securely",
  ],
  "two factor authentication": [
    "send a one time code so users can log in securely",
    "add two step verification to my login page",
  ],
  screenshot: [
    "take a screenshot of a web page from its URL",
    "capture an image of how my website looks in different browsers",
  ],
  "web search": [
    "search the internet for pages about a topic",
    "I need web search results in my chatbot like a search engine gives",
  ],
  "object storage": [
    "store uploaded files in the cloud and serve them later",
    "where can I keep large backups in buckets cheaply",
  ],
  "machine learning": [
    "train a model on my data and get predictions",
    "I want to deploy a machine learning model behind an API",
  ],
  chatbot: [
    "build a bot that answers customer questions in a chat",
    "which service can I use to create a conversational assistant for my website?",
  ],
  "project management": [
    "assign tasks to my team and track the project progress",
    "organise work into boards and to do lists with deadlines",
  ],
  "package tracking": [
    "where is my parcel right now, I have the tracking number",
    "track shipments from several couriers in one place",
  ],
  cryptocurrency: ["what is the price of bitcoin today", "I want to trade crypto coins from my own program"],
  movies: [
    "find information about a film, its cast and its rating",
    "which movies are showing and what are they about",
  ],
  sports: [
    "live football scores and match results",
    "I need statistics about players and teams for my fantasy league app",
  ],
  barcode: [
    "scan a barcode and find out which product it is",
    "generate QR codes and barcodes for my warehouse labels",
  ],
  "uptime monitoring": [
    "tell me when my website goes down",
    "check every minute that my servers respond and alert me if they stop",
  ],
  kubernetes: [
    "run my docker containers on a managed kubernetes cluster",
    "deploy and scale containerised services in the cloud",
  ],
  webhooks: [
    "receive an HTTP callback when something happens in another service",
    "I need to send webhooks to my customers and retry failed deliveries",
  ],
  "sign up": [
    "let users create an account and log in to my app",
    "handle user registration and sign in for my mobile application",
  ],
};

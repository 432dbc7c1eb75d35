-- Congress of Vienna: dealing the Diplomacy Phase's hands (16.2) and the reduced-player
-- hands (the solitaire seatings deal onto their displays: rules/solitaire.lua). Four players: every card not removed and not in a hand is shuffled, and each
-- power draws the number on its Card Hand Size track on top of what it holds. Three
-- players (18.3): the player of Russia and Austria draws both hand sizes less four into one
-- hand. Two players (18.2.1): the Allied player gets a face-down Allied deck of the three
-- Allied hand sizes less five, draws a hand of 11 (Limited War), 12 (Armistice) or 13
-- (General War) from it, refills it after each card played once the Wager is over, and
-- takes what is left of the deck into the hand at the end of the phase.

local deck = include("@lib/deck.lua")
local powers = include("rules/powers.lua")
local cards = include("rules/cards.lua")
local solitaire = include("rules/solitaire.lua")

local hands = {}

hands.ALLIED_DECK = "deck.allied"

-- The Allied hand by the war's status (18.2.1, item 4).
local ALLIED_HAND = { limited = 11, armistice = 12, general = 13 }
local WAR_STATUS = { limited = "Limited War", armistice = "Armistice", general = "General War" }

local name = powers.name

-- Cards held apart from Leaders: Leaders stay in hand and are not drawn from the Allied
-- deck, so they do not count against the Allied hand size (RULES-GAPS.md). Before the
-- Wager, the cards taken in the Initial Phase are kept apart too (18.2.1, item 3).
local function held(ctx, zone, without_initial)
  local n = 0
  for _, card in ipairs(ctx:zone(zone)) do
    if not cards.is_leader(ctx, card) and not (without_initial and ctx.vars.initial_cards[card]) then
      n = n + 1
    end
  end
  return n
end

-- The Allied player's hand size in the two-player game.
function hands.allied_size(ctx)
  local size = ALLIED_HAND[ctx.vars.war_status]
  if size == nil then
    error(string.format("unknown war status '%s' (limited, armistice or general)", tostring(ctx.vars.war_status)), 0)
  end
  return size
end

local function deal_each(ctx, list)
  for _, power in ipairs(list) do
    local n = ctx:counter("hand_size." .. power)
    local dealt = deck.draw(ctx, "deck", powers.hand_zone(ctx, power), n)
    ctx:log(string.format("%s is dealt %d cards (Card Hand Size %d)%s.", name(ctx, power), #dealt, n,
      #dealt < n and "; the deck ran out" or ""))
  end
end

-- The sum of the powers' hand sizes, with its words ("Russia 12 + Austria 11").
local function sizes(ctx, list)
  local total, parts = 0, {}
  for _, power in ipairs(list) do
    local n = ctx:counter("hand_size." .. power)
    total = total + n
    parts[#parts + 1] = string.format("%s %d", name(ctx, power), n)
  end
  return total, table.concat(parts, " + ")
end

-- Shuffles and deals the hands of the phase.
function hands.deal(ctx)
  deck.move_all(ctx, hands.ALLIED_DECK, "deck")
  deck.move_all(ctx, "discard", "deck")
  ctx:shuffle("deck")
  local variant = powers.variant(ctx)
  if solitaire.displays(ctx) then
    solitaire.deal(ctx)
  elseif variant == 2 then
    deal_each(ctx, { "FR" })
    local total, words = sizes(ctx, powers.allied(ctx))
    local n = math.max(total - 5, 0)
    local dealt = deck.draw(ctx, "deck", hands.ALLIED_DECK, n)
    ctx:log(string.format("The Allied deck: %s - 5 = %d cards (18.2.1)%s.", words, n,
      #dealt < n and string.format("; the deck ran out at %d", #dealt) or ""))
    -- Cards kept from the last turn count toward the hand (RULES-GAPS.md).
    local size = hands.allied_size(ctx)
    local kept = held(ctx, "hand.BR", true)
    local hand = deck.draw(ctx, hands.ALLIED_DECK, "hand.BR", math.max(size - kept, 0))
    ctx:log(string.format("The Allied player draws %d cards from it, for a hand of %d (%s: %d)%s.", #hand, kept + #hand,
      WAR_STATUS[ctx.vars.war_status], size, kept > 0 and string.format("; %d kept from last turn", kept) or ""))
  elseif variant == 3 then
    deal_each(ctx, { "FR", "BR" })
    local total, words = sizes(ctx, { "RU", "AU" })
    local n = math.max(total - 4, 0)
    local dealt = deck.draw(ctx, "deck", "hand.RU", n)
    ctx:log(string.format("Russia and Austria, one player, one hand: %s - 4 = %d cards (18.3)%s.", words, n,
      #dealt < n and "; the deck ran out" or ""))
  else
    deal_each(ctx, powers.in_game(ctx))
  end
end

-- Two players: once the Wager is over, the Allied hand is filled up to its size from the
-- Allied deck after every card played (18.2.1, item 5; 18.2.2). Nothing otherwise.
function hands.refill(ctx)
  local d = ctx.vars.diplomacy
  if powers.variant(ctx) ~= 2 or not (d and d.refill) then
    return
  end
  local size = hands.allied_size(ctx)
  local short = size - held(ctx, "hand.BR")
  if short <= 0 or ctx:count(hands.ALLIED_DECK) == 0 then
    return
  end
  local drawn = deck.draw(ctx, hands.ALLIED_DECK, "hand.BR", short)
  ctx:log(string.format("The Allied player draws %d card%s from the Allied deck (hand size %d; %d left in the deck).",
    #drawn, #drawn == 1 and "" or "s", size, ctx:count(hands.ALLIED_DECK)))
end

-- Two players: at the end of the phase what is left of the Allied deck goes to the hand.
function hands.end_of_phase(ctx)
  local left = ctx:count(hands.ALLIED_DECK)
  if left > 0 then
    deck.draw(ctx, hands.ALLIED_DECK, "hand.BR", left)
    ctx:log(string.format("The Allied deck's last %d card%s go%s into the Allied hand (18.2.1).", left,
      left == 1 and "" or "s", left == 1 and "es" or ""))
  end
end

-- At set-up, the Leaders and cards the scenario gives each power go to the hand its
-- player holds.
function hands.seat_hands(ctx)
  for _, power in ipairs(powers.CLOCKWISE) do
    local zone = powers.hand_zone(ctx, power)
    if zone ~= "hand." .. power then
      for _, card in ipairs(ctx:zone("hand." .. power)) do
        ctx:move_card(card, zone)
      end
    end
  end
end

return hands

-- Congress of Vienna: the two displays of the card-driven solo method (Playbook 19,
-- "CDGSM"), and what is done to them outside a play: the lay-out of a side's dealt cards
-- (19.2), the Initial Phase's cards after the Wager (19.2), the possibly usable military
-- cards (PUMC, 19.1), the Military pile becoming the draw pile (19.4), the refill of open
-- spaces (19.3, step 5) and the War Phase's cards (19.5). The states that play a card are
-- in rules/cdgsm.lua, which also hands this library on.
--
-- The zones (data/components.ron): "cdgsm.<side>.<space>" holds the card of space A, B, D
-- or E lying face up, "cdgsm.<side>.<space>.down" one lying face down (a space holds one
-- card, in one of the two); "cdgsm.<side>.C" is the face-down draw pile and
-- "cdgsm.<side>.C.up" its top card once turned up; "military" the Military pile, "beside"
-- the Leaders and "played" the card a power has just played. A side is "FR" or "allies".

local deck = include("@lib/deck.lua")
local powers = include("rules/powers.lua")
local cards = include("rules/cards.lua")
local display = include("rules/display.lua")
local options = include("rules/options.lua")
local util = include("@lib/util.lua")

local solo = {}

-- The display's spaces other than the draw pile, in the order they are refilled.
solo.SPACES = { "A", "B", "D", "E" }

local SIDE_NAMES = { FR = "France", allies = "the Coalition" }

-- Russia's card #31: laid beside the Allied display like a Leader (19.3, the first note).
local KUTUZOV = "kutuzov"

function solo.check_side(side)
  if SIDE_NAMES[side] == nil then
    error(string.format("unknown solo display side '%s' (FR or allies)", tostring(side)), 0)
  end
end

-- The zone of a side's display: "A", "A.down", "C", "C.up", "military", "beside", "played".
function solo.zone(side, what)
  return "cdgsm." .. side .. "." .. what
end

local zone = solo.zone

local function card_name(ctx, card)
  return cards.name(ctx, card)
end

-- "the Coalition", or "The Coalition" at the start of a sentence.
--- "France's", "the Allies'" (capitalised if asked): a side's possessive.
function solo.side_possessive(side, capital)
  local words = solo.side_name(side, capital)
  return string.sub(words, -1) == "s" and words .. "'" or words .. "'s"
end

function solo.side_name(side, capital)
  local words = SIDE_NAMES[side]
  if capital then
    return string.upper(string.sub(words, 1, 1)) .. string.sub(words, 2)
  end
  return words
end

-- "space A", or "the draw pile, C".
function solo.space_words(space)
  return space == "C" and "the draw pile, C" or ("space " .. space)
end

-- The card names of a list, joined ("none" for an empty list).
function solo.names(ctx, list)
  local words = {}
  for _, card in ipairs(list) do
    words[#words + 1] = card_name(ctx, card)
  end
  return #words > 0 and table.concat(words, ", ") or "none"
end

-- The side whose display a power plays from.
function solo.side_of(power)
  return power == "FR" and "FR" or "allies"
end

-- The side's record for this Diplomacy Phase (created if missing): whether its Military
-- pile has gone to the draw pile (19.4) and, at the end, its cards for the War Phase.
function solo.record(ctx, side)
  ctx.vars.cdgsm = ctx.vars.cdgsm or {}
  ctx.vars.cdgsm[side] = ctx.vars.cdgsm[side] or { transferred = false }
  return ctx.vars.cdgsm[side]
end

-- Whether the side's Military pile has gone to the draw pile this phase (reads only).
function solo.transferred(ctx, side)
  local rec = (ctx.vars.cdgsm or {})[side]
  return rec ~= nil and rec.transferred == true
end

-- The card in a space of A, B, D, E and whether it lies face up; nil if the space is open.
function solo.card_in(ctx, side, space)
  local up = ctx:zone(zone(side, space))[1]
  if up then
    return up, true
  end
  return ctx:zone(zone(side, space .. ".down"))[1], false
end

-- The draw pile's top card turned face up this play, or nil.
function solo.turned_top(ctx, side)
  return ctx:zone(zone(side, "C.up"))[1]
end

-- The cards lying face up on a side's display, each {card, space}: those of A, B, D and E,
-- then the draw pile's top card turned up this play (space "C").
function solo.face_up(ctx, side)
  local list = {}
  for _, space in ipairs(solo.SPACES) do
    local card, up = solo.card_in(ctx, side, space)
    if card and up then
      list[#list + 1] = { card = card, space = space }
    end
  end
  local top = solo.turned_top(ctx, side)
  if top then
    list[#list + 1] = { card = top, space = "C" }
  end
  return list
end

-- Turns the card in a space face up; returns it if it lay face down.
function solo.turn_up(ctx, side, space)
  local down = ctx:zone(zone(side, space .. ".down"))[1]
  if down then
    ctx:move_card(down, zone(side, space))
  end
  return down
end

-- Turns the cards of `spaces` face up; returns the words for those that lay face down.
function solo.turn_up_spaces(ctx, side, spaces)
  local turned = {}
  for _, space in ipairs(spaces) do
    local card = solo.turn_up(ctx, side, space)
    if card then
      turned[#turned + 1] = string.format("%s (space %s)", card_name(ctx, card), space)
    end
  end
  return turned
end

-- Turns the draw pile's top card face up (it stays the pile's top card); returns it.
function solo.turn_up_top(ctx, side)
  local up = solo.turned_top(ctx, side)
  if up then
    return up
  end
  local top = ctx:zone(zone(side, "C"))[1]
  if top then
    ctx:move_card(top, zone(side, "C.up"))
  end
  return top
end

-- How many cards the draw pile holds, its turned-up top card included.
function solo.pile_size(ctx, side)
  return ctx:count(zone(side, "C")) + ctx:count(zone(side, "C.up"))
end

-- Possibly usable military cards (PUMC, 19.1) ---------------------------------------------

-- Whether Austrian military cards may serve in this turn's War Phase: Austria is at war, or
-- the Armistice holds and Austria at War is still on the Diplomacy Display to be won
-- (19.1's example).
local function austrian_cards_usable(ctx)
  if powers.austria_at_war(ctx) then
    return true
  end
  return ctx.vars.war_status == "armistice" and display.where(ctx, "issue.austria_at_war") ~= nil
end

local NATIONS = { FR = { FR = true }, allies = { RU = true, AU = true, BR = true } }

-- Whether `card` is a PUMC for a side (19.1; the reading is in RULES-GAPS.md): a military
-- card of the side's nations (France's; any Allied power's for the Coalition, whose display
-- serves all three) or neutral; Austrian ones only while Austria is at war or may still go
-- to war in this Armistice. A card whose military flag or nation is not entered is not one.
-- Fronts, the Generalissimo and the other issues are not weighed: the card "could
-- possibly" be used.
function solo.side_pumc(ctx, side, card)
  if not (ctx:known("card", card, "military") and ctx:known("card", card, "nation")) then
    return false
  end
  local fields = ctx.data.cards[card].fields
  if fields.military ~= true then
    return false
  end
  if fields.nation == "AU" and not austrian_cards_usable(ctx) then
    return false
  end
  return fields.nation == "neutral" or NATIONS[side][fields.nation] == true
end

-- Whether `card` is a PUMC for `power`: one of its side's.
function solo.pumc(ctx, power, card)
  if ctx.data.seats[power] == nil then
    error(string.format("unknown power '%s'", tostring(power)), 0)
  end
  return solo.side_pumc(ctx, solo.side_of(power), card)
end

-- Laying out and clearing a display (19.2) ------------------------------------------------

-- Every zone of a side's display, piles and Leaders beside it.
function solo.zones(side)
  local list = {}
  for _, space in ipairs(solo.SPACES) do
    list[#list + 1] = zone(side, space)
    list[#list + 1] = zone(side, space .. ".down")
  end
  for _, what in ipairs({ "C.up", "C", "military", "beside", "played", "wager", "offer" }) do
    list[#list + 1] = zone(side, what)
  end
  return list
end

-- The cards a play may still bring from a side's display: those in A, B, D, E (face up or
-- down), the draw pile and, since it becomes the draw pile when that runs out (19.4), the
-- Military pile. Leaders beside the display are played without the fate die.
-- Those zones of each side, in order, named once.
local playable_zones = {}

local function playable_from(side)
  local from = playable_zones[side]
  if from == nil then
    from = {}
    for _, space in ipairs(solo.SPACES) do
      from[#from + 1] = zone(side, space)
      from[#from + 1] = zone(side, space .. ".down")
    end
    for _, what in ipairs({ "C.up", "C", "military" }) do
      from[#from + 1] = zone(side, what)
    end
    playable_zones[side] = from
  end
  return from
end

function solo.playable(ctx, side)
  local list = {}
  for _, z in ipairs(playable_from(side)) do
    for _, card in ipairs(ctx:zone(z)) do
      list[#list + 1] = card
    end
  end
  return list
end

-- Whether any of `zones` holds a card.
function solo.any_cards(ctx, zones)
  for _, z in ipairs(zones) do
    if ctx:count(z) > 0 then
      return true
    end
  end
  return false
end

-- Whether a play may still bring a card from a side's display (solo.playable is not
-- empty), without listing them: every power's turn asks it of every other.
function solo.has_playable(ctx, side)
  return solo.any_cards(ctx, playable_from(side))
end

-- The Leaders of `power` lying beside its side's display.
function solo.leaders(ctx, power)
  return util.filter(ctx:zone(zone(solo.side_of(power), "beside")), function(card)
    return cards.is_leader(ctx, card) and (not ctx:known("card", card, "nation") or cards.nation(ctx, card) == power)
  end)
end

-- A card a side receives in a trade while the sides play from their displays (19 does not
-- say where it goes; RULES-GAPS.md): `how` "like-initial" treats it as an Initial Phase card
-- after the Wager (19.2), "top-face-up" lays it face up on top of the draw pile.
function solo.receive(ctx, side, card, how)
  if how == "top-face-up" and solo.turned_top(ctx, side) == nil then
    ctx:move_card(card, zone(side, "C.up"))
    ctx:log(string.format("The card received goes face up on top of %s draw pile.", solo.side_possessive(side)))
    return
  elseif how == "top-face-up" then
    ctx:move_card(card, zone(side, "C"), "top")
    ctx:log(string.format("The card received goes on top of %s draw pile, under the card turned up.", solo.side_possessive(side)))
    return
  end
  local closed = solo.transferred(ctx, side)
  if not closed and solo.side_pumc(ctx, side, card) then
    ctx:move_card(card, zone(side, "military"))
    ctx:log(string.format("The card received goes to %s Military pile (19.2).", solo.side_possessive(side)))
  else
    ctx:move_card(card, zone(side, "C"))
    ctx:shuffle(zone(side, "C"))
    ctx:log(string.format("The card received is shuffled into %s draw pile (19.2).", solo.side_possessive(side)))
  end
end

-- Moves every card of the side's display, piles and Leaders beside it to `to` (at the end
-- of the phase, before the next turn's lay-out); returns how many.
function solo.clear(ctx, side, to)
  solo.check_side(side)
  local n = 0
  for _, from in ipairs(solo.zones(side)) do
    n = n + ctx:count(from)
    deck.move_all(ctx, from, to)
  end
  return n
end

-- Lays out the cards dealt to a side (19.2): its Leaders, and Kutuzov for the Coalition,
-- face up beside the display; the others shuffled, one face up in A and in B, one face
-- down in D and in E, the rest face down in the draw pile C. The display must be empty.
function solo.setup(ctx, side, dealt)
  solo.check_side(side)
  for _, from in ipairs(solo.zones(side)) do
    if ctx:count(from) > 0 then
      error(string.format("%s solo display still holds cards (%s): clear it before a new lay-out",
        solo.side_possessive(side, true), ctx.data.zones[from].name), 0)
    end
  end
  ctx.vars.cdgsm = ctx.vars.cdgsm or {}
  ctx.vars.cdgsm[side] = { transferred = false }
  local beside = {}
  for _, card in ipairs(dealt) do
    if cards.is_leader(ctx, card) or card == KUTUZOV then
      ctx:move_card(card, zone(side, "beside"))
      beside[#beside + 1] = card
    else
      ctx:move_card(card, zone(side, "C"))
    end
  end
  ctx:shuffle(zone(side, "C"))
  local laid = {}
  for _, space in ipairs(solo.SPACES) do
    local top = ctx:zone(zone(side, "C"))[1]
    if top and (space == "A" or space == "B") then
      ctx:move_card(top, zone(side, space))
      laid[#laid + 1] = string.format("%s face up in space %s", card_name(ctx, top), space)
    elseif top then
      ctx:move_card(top, zone(side, space .. ".down"))
      laid[#laid + 1] = string.format("a card face down in space %s", space)
    end
  end
  ctx:log(string.format("%s solo display is laid out (19.2): beside it %s; %s; %d cards in the draw pile (C).",
    solo.side_possessive(side, true), solo.names(ctx, beside), #laid > 0 and table.concat(laid, ", ") or "no card in its spaces",
    ctx:count(zone(side, "C"))))
end

-- The cards a side received in the Initial Phase, once the Wager is over (19.2): its PUMC
-- to the Military pile (for the Coalition, those of any Allied power), the others shuffled
-- into the draw pile. A Military pile already turned into the draw pile (19.4) takes none.
function solo.after_wager(ctx, side, received)
  solo.check_side(side)
  local closed = solo.record(ctx, side).transferred
  local saved, shuffled = {}, 0
  for _, card in ipairs(received) do
    if not closed and solo.side_pumc(ctx, side, card) then
      ctx:move_card(card, zone(side, "military"))
      saved[#saved + 1] = card
    else
      ctx:move_card(card, zone(side, "C"))
      shuffled = shuffled + 1
    end
  end
  if shuffled > 0 then
    ctx:shuffle(zone(side, "C"))
  end
  ctx:log(string.format("%s Initial Phase cards after the Wager (19.2): to the Military pile %s; %d shuffled into the draw pile (C).",
    solo.side_possessive(side, true), solo.names(ctx, saved), shuffled))
end

-- The draw pile runs out (19.4) -----------------------------------------------------------

-- The Military pile is shuffled face down into the empty draw pile and closed for the rest
-- of the phase; every card on the display turns face up, and stays open to play.
function solo.deplete(ctx, side)
  local rec = solo.record(ctx, side)
  if rec.transferred then
    return
  end
  rec.transferred = true
  local n = ctx:count(zone(side, "military"))
  deck.move_all(ctx, zone(side, "military"), zone(side, "C"))
  ctx:shuffle(zone(side, "C"))
  local turned = solo.turn_up_spaces(ctx, side, solo.SPACES)
  ctx:log(string.format("%s draw pile is empty (19.4): the Military pile (%d card%s) is shuffled into it and closed for the rest of this Diplomacy Phase. Every card on the display now lies face up and may be played, with no more fate die; turned up: %s.",
    solo.side_possessive(side, true), n, n == 1 and "" or "s", #turned > 0 and table.concat(turned, ", ") or "none"))
end

-- Fills the display's open spaces from the draw pile, A, B, D, E in turn (19.3, step 5):
-- each card comes as it lies, face down, or face up if it is the top card turned up this
-- play. Once the Military pile has become the draw pile every card comes face up. An empty
-- draw pile is replaced by the Military pile first (19.4). With the option cdgsm.refill =
-- played-space, the turned-up top card takes the space of the card just played
-- (`played`, when it left one open), as 20.7's example has it (L1637).
function solo.refill(ctx, side, played)
  local whose, open = solo.side_possessive(side, true), {}
  local up = solo.turned_top(ctx, side)
  if up and played and options.get(ctx, "cdgsm.refill") == "played-space" and util.contains(solo.SPACES, played)
    and solo.card_in(ctx, side, played) == nil then
    ctx:move_card(up, zone(side, played))
    ctx:log(string.format("%s turned-up %s takes space %s, the played card's (20.7's example, as the game is set up).",
      whose, card_name(ctx, up), played))
  end
  for _, space in ipairs(solo.SPACES) do
    if solo.card_in(ctx, side, space) == nil then
      if solo.pile_size(ctx, side) == 0 then
        solo.deplete(ctx, side)
      end
      local up = solo.turned_top(ctx, side)
      local top = up or ctx:zone(zone(side, "C"))[1]
      if top == nil then
        open[#open + 1] = space
      elseif up or solo.transferred(ctx, side) then
        ctx:move_card(top, zone(side, space))
        ctx:log(string.format("%s space %s is filled from the draw pile with %s, face up.", whose, space, card_name(ctx, top)))
      else
        ctx:move_card(top, zone(side, space .. ".down"))
        ctx:log(string.format("%s space %s is filled from the draw pile, face down.", whose, space))
      end
    end
  end
  if #open > 0 then
    ctx:log(string.format("%s draw pile is empty: space%s %s stay%s open.", whose, #open == 1 and "" or "s",
      table.concat(open, ", "), #open == 1 and "s" or ""))
  end
end

-- The War Phase's cards (19.5) ------------------------------------------------------------

-- The PUMC a side takes to the War Phase: those in its Military pile, on its display and
-- in its draw pile (Leaders beside the display are not among them).
function solo.war_cards(ctx, side)
  solo.check_side(side)
  local from = { zone(side, "military") }
  for _, space in ipairs(solo.SPACES) do
    from[#from + 1] = zone(side, space)
    from[#from + 1] = zone(side, space .. ".down")
  end
  from[#from + 1] = zone(side, "C.up")
  from[#from + 1] = zone(side, "C")
  return solo.cards_in(ctx, from, function(card)
    return solo.side_pumc(ctx, side, card)
  end)
end

-- The cards of `zones` in order, those `keep(card)` allows (all, without it).
function solo.cards_in(ctx, zones, keep)
  local list = {}
  for _, z in ipairs(zones) do
    for _, card in ipairs(ctx:zone(z)) do
      if keep == nil or keep(card) then
        list[#list + 1] = card
      end
    end
  end
  return list
end

return solo

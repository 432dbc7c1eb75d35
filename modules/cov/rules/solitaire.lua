-- Congress of Vienna: the solitaire seatings of Playbook 20-23 around the card-driven solo
-- method (19). Who is played by one of the Playbook's bots (20: the Allied bot plays
-- Russia, Britain and Austria; 21: the French bot plays France; 22: both bots play every
-- power but the person's; 23: nobody); the deal onto the two displays (the Coalition's
-- single hand of the three hand sizes less five, 20.2, 21.2, 22.1, 23, with the
-- difficulty offsets of 20.13/21.12; France's normal hand, 19.2); the Wager's order; the
-- Initial Phase's cards after the Wager; who may start a trade; the War Phase's cards
-- (19.5); the tie order of 20.2; Austria's Military Operation of 21.7; the Enhanced French
-- bot (21.12 #4); and who draws Fog of War. The states that play cards from the displays
-- are in rules/solo_diplomacy.lua, the displays themselves in rules/cdgsm_display.lua.

local deck = include("@lib/deck.lua")
local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")
local cards = include("rules/cards.lua")
local display = include("rules/display.lua")
local solo = include("rules/cdgsm_display.lua")
local options = include("rules/options.lua")

local solitaire = {}

-- The seatings with a bot (20, 21, 22); 23 is played by one person alone.
local AGAINST_BOTS = {
  ["solo-vs-allied-bot"] = true,
  ["solo-vs-french-bot"] = true,
  ["solo-allied-power"] = true,
}

-- The Coalition's deal: the three Allied hand sizes less this many (20.13 #3, 21.12 #3).
local OFFSETS = { ["minus-5"] = 5, ["minus-10"] = 10, ["minus-0"] = 0 }

-- Whether the sides play their Diplomacy Phase from the displays (every solitaire seating
-- of 20-23, L1100).
function solitaire.displays(ctx)
  return powers.solitaire(ctx)
end

-- Whether a bot plays in this seating (20, 21, 22).
function solitaire.against_bots(ctx)
  return AGAINST_BOTS[ctx.vars.seating] == true
end

-- Whether one of the Playbook's bots plays `power` in this seating: in 20, 21 and 22 every
-- power but those a person plays (`vars.humans`).
function solitaire.bot_power(ctx, power)
  return solitaire.against_bots(ctx) and not util.contains(ctx.vars.humans or {}, power)
end

-- The zone a side's cards wait in outside its display: France's hand, and the Coalition's
-- cards that the three Allied seats share.
function solitaire.hand_of_side(side)
  return side == "FR" and "hand.FR" or "hand.allies"
end

-- Where a card `power` receives outside the Diplomacy Phase goes: its side's hand in the
-- solitaire seatings, its own otherwise.
function solitaire.hand_of(ctx, power)
  if solitaire.displays(ctx) then
    return solitaire.hand_of_side(power == "FR" and "FR" or "allies")
  end
  return powers.hand_zone(ctx, power)
end

local allied_powers = powers.allied

-- The cards of `zone` a side keeps from the last turn: not a Leader, not one the Initial
-- Phase gave this turn (those wait until the Wager is over, 19.2).
local function kept(ctx, zone)
  return util.filter(ctx:zone(zone), function(card)
    return not cards.is_leader(ctx, card) and not ctx.vars.initial_cards[card]
  end)
end

local function leaders_in(ctx, zone, list)
  for _, card in ipairs(ctx:zone(zone)) do
    if cards.is_leader(ctx, card) then
      list[#list + 1] = card
    end
  end
end

local function append(list, more)
  for _, card in ipairs(more) do
    list[#list + 1] = card
  end
end

-- The deal of a solitaire Diplomacy Phase (19.2; 20.2, 21.2, 22.1, 23): France is dealt its
-- Card Hand Size, the Coalition the three Allied hand sizes less the offset; each side's
-- cards, with its Leaders and what it kept from the last turn, are laid out as its display.
-- The Initial Phase's cards stay in the hands until the Wager is over.
function solitaire.deal(ctx)
  local french = {}
  leaders_in(ctx, "hand.FR", french)
  append(french, kept(ctx, "hand.FR"))
  local size = ctx:counter("hand_size.FR")
  local dealt = deck.draw(ctx, "deck", "hand.FR", size)
  append(french, dealt)
  ctx:log(string.format("France is dealt %d cards (Card Hand Size %d)%s.", #dealt, size,
    #dealt < size and "; the deck ran out" or ""))
  solo.setup(ctx, "FR", french)

  local allied, total, parts = {}, 0, {}
  for _, power in ipairs(allied_powers(ctx)) do
    leaders_in(ctx, "hand." .. power, allied)
    append(allied, kept(ctx, "hand." .. power))
    local n = ctx:counter("hand_size." .. power)
    total = total + n
    parts[#parts + 1] = string.format("%s %d", powers.name(ctx, power), n)
  end
  append(allied, kept(ctx, "hand.allies"))
  local offset = OFFSETS[options.get(ctx, "solitaire.coalition_cards")]
  local n = math.max(total - offset, 0)
  local coalition = deck.draw(ctx, "deck", "hand.allies", n)
  append(allied, coalition)
  ctx:log(string.format("The Coalition's cards: %s - %d = %d (20.2, 21.2, 22.1, 23)%s.", table.concat(parts, " + "),
    offset, n, #coalition < n and string.format("; the deck ran out at %d", #coalition) or ""))
  solo.setup(ctx, "allies", allied)
end

-- The order in which the powers take their Wager card from the displays: 20 France, then
-- Britain, Russia and Austria (L1541); 21 Britain, Russia and Austria, then France
-- (L1798); 22 the person, then clockwise (L1988); 23 clockwise from France, as four players
-- sit (L2015).
function solitaire.wager_order(ctx)
  local seating = ctx.vars.seating
  local order
  if seating == "solo-vs-allied-bot" then
    order = { "FR", "BR", "RU", "AU" }
  elseif seating == "solo-vs-french-bot" then
    order = { "BR", "RU", "AU", "FR" }
  elseif seating == "solo-allied-power" then
    local person = ctx.vars.humans[1]
    order = { person }
    for _, power in ipairs(powers.from_left_of(ctx, person)) do
      if power ~= person then
        order[#order + 1] = power
      end
    end
  else
    order = powers.CLOCKWISE
  end
  return util.filter(order, function(power)
    return not powers.passive(ctx, power)
  end)
end

-- After the Wager (19.2): each side's Initial Phase cards, the possibly usable military cards
-- to its Military pile, the others shuffled into its draw pile.
function solitaire.after_wager(ctx)
  local sides = { FR = { "FR" }, allies = allied_powers(ctx) }
  for _, side in ipairs({ "FR", "allies" }) do
    local received = {}
    for _, power in ipairs(sides[side]) do
      for _, card in ipairs(ctx:zone("hand." .. power)) do
        if ctx.vars.initial_cards[card] then
          received[#received + 1] = card
        end
      end
    end
    if #received > 0 then
      solo.after_wager(ctx, side, received)
    end
  end
end

-- Who may start a trade: in 23 anyone, as with four players (L2015); in 20, 21 and 22 only
-- France, never the Allies (20.6 L1587, 21.7 L1850, 22.1 L1990).
function solitaire.may_start_trade(ctx, power)
  return ctx.vars.seating == "solo-fog-of-war" or power == "FR"
end

-- Whether `power` rolls its fate die before it chooses to negotiate or trade (a bot's
-- power that may trade, option cdgsm.bot_roll: 21.5, L1824).
function solitaire.rolls_first(ctx, power)
  return solitaire.bot_power(ctx, power) and solitaire.may_start_trade(ctx, power)
    and options.get(ctx, "cdgsm.bot_roll") == "first"
end

-- The tie order against a bot (20.2, L1521): Britain, else Austria, else Russia, never
-- France. Nil in 23, where Britain decides as with four players.
function solitaire.tie_winner(ctx, tied)
  if not solitaire.against_bots(ctx) then
    return nil
  end
  for _, power in ipairs({ "BR", "AU", "RU" }) do
    if util.contains(tied, power) then
      return power
    end
  end
  return nil
end

-- The end of a solitaire Diplomacy Phase (19.5): each side's possibly usable military cards
-- go to the War Phase, with every other card left on its display, into the side's hand
-- (France's, or the Coalition's); what is not played stays there, to be laid out with the
-- next turn's deal. The Leaders beside a display go back to their powers. Who sees what:
-- the counts are public, the names go to the side's seats.
function solitaire.war_cards(ctx)
  for _, side in ipairs({ "FR", "allies" }) do
    local military = solo.war_cards(ctx, side)
    local to = solitaire.hand_of_side(side)
    for _, card in ipairs(ctx:zone(solo.zone(side, "beside"))) do
      local power = ctx.data.cards[card].fields.nation
      ctx:move_card(card, cards.is_leader(ctx, card) and powers.hand_zone(ctx, power) or to)
    end
    local others = solo.clear(ctx, side, to) - #military
    ctx:log(string.format("%s takes %d possibly usable military card%s to the War Phase and keeps %d other card%s (19.5).",
      solo.side_name(side, true), #military, #military == 1 and "" or "s", others, others == 1 and "" or "s"))
    local words = string.format("Your military cards for the War Phase (19.5): %s.", solo.names(ctx, military))
    for _, power in ipairs(side == "FR" and { "FR" } or allied_powers(ctx)) do
      ctx:tell(powers.seat(ctx, power), words)
    end
  end
end

-- Against the French bot, when Austria goes to war (21.7, L1858): at the end of the
-- Diplomacy Phase, with Austria at War on an Allied track, the Austrian Military Operation
-- waiting on the display is placed on Austria at War's space, and Austria pays a Resource
-- for it in the Government Phase. (The module reads "goes to war" as Austria at War won
-- by an Allied power this phase; RULES-GAPS.md.)
function solitaire.austria_operation(ctx)
  if ctx.vars.seating ~= "solo-vs-french-bot" or powers.austria_at_war(ctx) then
    return
  end
  local marker = "issue.austria_at_war"
  local owner = display.track_of(ctx, marker)
  if owner == nil or owner == "FR" then
    return
  end
  local piece = display.waiting(ctx, "mil_op_au")
  if piece == nil then
    ctx:log("Austria at War is on an Allied track, but no Austrian Military Operation waits on the display (21.7).")
    return
  end
  local _, _, n = display.where(ctx, marker)
  local where = display.put(ctx, piece, owner, n)
  table.insert(ctx.vars.government_costs, { power = "AU", resources = 1, why = "the Austrian Military Operation of 21.7" })
  ctx:log(string.format("Austria goes to war: the Austrian Military Operation is placed with Austria at War, on %s; Austria pays 1 Resource for it (21.7).",
    where))
end

-- The Enhanced French bot (21.12 #4, option solitaire.enhanced_french_bot): while France's
-- Card Hand Size is 12 or less and France does not lead in VP, once its Military pile has
-- gone to its draw pile, a French military character card or a neutral battle card the
-- French bot plays goes under its draw pile, to serve again in the War Phase. Returns
-- whether it did so (the caller discards the card otherwise).
function solitaire.keep_played(ctx, power, card)
  if power ~= "FR" or not solitaire.bot_power(ctx, "FR") or options.get(ctx, "solitaire.enhanced_french_bot") ~= "on"
      or not solo.transferred(ctx, "FR") or ctx:counter("hand_size.FR") > 12 then
    return false
  end
  local vp = ctx:counter("vp.FR")
  for _, other in ipairs(allied_powers(ctx)) do
    if ctx:counter("vp." .. other) >= vp then
      vp = nil
      break
    end
  end
  local f = ctx.data.cards[card].fields
  if vp ~= nil or cards.is_leader(ctx, card) or f.military ~= true then
    return false
  end
  if not ((f.nation == "FR" and f.kind == "character") or (f.nation == "neutral" and f.kind == "event")) then
    return false
  end
  ctx:move_card(card, solo.zone("FR", "C"), "bottom")
  ctx:log(string.format("The Enhanced French bot keeps %s: it goes under France's draw pile (21.12).", cards.name(ctx, card)))
  return true
end

-- The sides that draw Fog of War cards in a battle (23.1; RULES-GAPS.md): both in 23, the
-- bot's side in 20 and 21 (each section names the pile for its own bot, L1719, L1920),
-- France alone in 22 (L1996). France resolves its draws first.
function solitaire.fog_sides(ctx)
  local seating = ctx.vars.seating
  if seating == "solo-fog-of-war" then
    return { "FR", "allied" }
  elseif seating == "solo-vs-allied-bot" then
    return { "allied" }
  elseif seating == "solo-vs-french-bot" or seating == "solo-allied-power" then
    return { "FR" }
  end
  return {}
end

-- The side that lays its battle cards first and shows them before the other lays its own
-- (option solitaire.battle_cards, person-first: a bot counts its opponent's cards, 20.11.2
-- L1713, 21.10.2 L1914): the side a person plays, France when people or bots play both; nil
-- when the sides lay together, in secret, as with four players.
function solitaire.first_side(ctx)
  if not powers.solitaire(ctx) or options.get(ctx, "solitaire.battle_cards") == "together" then
    return nil
  end
  if solitaire.bot_power(ctx, "FR") then
    for _, power in ipairs(allied_powers(ctx)) do
      if not solitaire.bot_power(ctx, power) then
        return "allied"
      end
    end
  end
  return "FR"
end

-- Whether `power` keeps its new units as a reserve in its capital, to place them in
-- strategic movement: the Allied bot's National Reserve (20.9, Step 12, L1655) and the
-- French bot's Paris Reserve (21.8.2, L1872), for the powers a bot plays.
function solitaire.keeps_reserve(ctx, power)
  return solitaire.bot_power(ctx, power)
end

return solitaire

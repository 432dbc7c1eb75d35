-- Congress of Vienna: Handicap cards, the solitaire difficulty options of 20.13 #2 (L1745-
-- L1749: 1 or 2 to each Allied power the Allied bot plays) and 21.12 #2 (L1954-L1960: 1 to
-- 3 to the French bot), option solitaire.handicap. They are dealt at the start of each turn
-- and each is used at the time it gives (its `timing`, owner data but for H-1's). What a
-- card does is owner data too: an issue placed on its receiver's track (the receiver
-- chooses among those waiting, a bot by the criteria of its chapter or else at random,
-- L1747, L1956), cards drawn, new units; what the fields do not say, the players carry out
-- by hand from the printed card and confirm. At the end of the turn they are shuffled back
-- (20.13, 21.12) or, option solitaire.handicap_used=discard, set aside until the deck runs
-- short (21.12's alternative, L1960).

local deck = include("@lib/deck.lua")
local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")
local display = include("rules/display.lua")
local issues = include("rules/issues.lua")
local options = include("rules/options.lua")
local solitaire = include("rules/solitaire.lua")
local forces = include("rules/forces.lua")
local steps = include("@lib/steps.lua")

local handicap = {}

local DECK, USED = "handicap.deck", "handicap.used"

-- The powers that receive Handicap cards in this seating, and how many each: the Allied
-- bot's three powers (20, at most 2 each) or the French bot (21, at most 3).
function handicap.receivers(ctx)
  local n = tonumber(options.get(ctx, "solitaire.handicap"))
  if n == 0 then
    return {}, 0
  end
  if ctx.vars.seating == "solo-vs-allied-bot" then
    return powers.allied(ctx), math.min(n, 2)
  elseif ctx.vars.seating == "solo-vs-french-bot" then
    return { "FR" }, n
  end
  return {}, 0
end

-- Checks the option against the seating at set-up: Handicap cards are for the bots of 20
-- (1 or 2 each) and 21 (1 to 3).
function handicap.check(seating, given)
  local n = tonumber(given["solitaire.handicap"] or "0")
  if n == 0 then
    return
  end
  if seating == "solo-vs-allied-bot" and n > 2 then
    error("solitaire.handicap: the Allied bot's powers take 1 or 2 Handicap cards each (20.13)", 0)
  elseif seating ~= "solo-vs-allied-bot" and seating ~= "solo-vs-french-bot" then
    error("solitaire.handicap: Handicap cards are for the bots of seatings solo-vs-allied-bot (20.13) and solo-vs-french-bot (21.12)", 0)
  end
end

-- The start of a turn: each receiver is dealt its cards. With the discard option a deck that
-- runs short takes back the cards set aside first.
function handicap.deal(ctx)
  local receivers, n = handicap.receivers(ctx)
  for _, power in ipairs(receivers) do
    if ctx:count(DECK) < n and ctx:count(USED) > 0 then
      deck.move_all(ctx, USED, DECK)
      ctx:shuffle(DECK)
      ctx:log("The Handicap cards set aside are shuffled into a new Handicap deck (21.12).")
    end
    local dealt = deck.draw(ctx, DECK, "handicap." .. power, n)
    local names = {}
    for i, card in ipairs(dealt) do
      names[i] = ctx.data.cards[card].name
    end
    ctx:log(string.format("%s is dealt %d Handicap card%s: %s.", powers.name(ctx, power), #dealt, #dealt == 1 and "" or "s",
      #names > 0 and table.concat(names, ", ") or "none left"))
  end
end

-- The Handicap cards due at `timing`, each {card, power}.
local function due(ctx, timing)
  local list = {}
  for _, power in ipairs(powers.CLOCKWISE) do
    for _, card in ipairs(ctx:zone("handicap." .. power)) do
      if ctx.data.cards[card].fields.timing == timing then
        list[#list + 1] = { card = card, power = power }
      end
    end
  end
  return list
end

-- A step that uses the cards due at `timing` (for a procedure's step to return), or nil.
function handicap.use(ctx, timing)
  if #due(ctx, timing) > 0 then
    return steps.call("handicap_use", { timing = timing })
  end
  return nil
end

--- The step of a phase's procedure (@lib/steps.lua) that uses the Handicap cards due at
--- `timing` ("start of the War Phase"), if any: a step for the procedure's list.
function handicap.step(timing)
  return {
    name = "Handicap cards",
    calls = "handicap_use",
    run = function(ctx)
      return handicap.use(ctx, timing)
    end,
  }
end

-- The issues a card may place for `power`, waiting on the display.
local function issue_choices(ctx, spec, power)
  return util.filter(display.all_waiting(ctx), function(piece)
    if spec.issues == "minor_unit" then
      return issues.minor_ally_of(ctx, piece, power) and issues.gives_unit(ctx, piece, power)
    end
    return util.contains(spec.issues or {}, ctx.data.pieces[piece].props.issue)
  end)
end

-- What is left for the players to do by hand for a card: its words, or, when nothing of it
-- is entered, the printed card.
local function by_hand(ctx, card, power)
  local name = ctx.data.cards[card].name
  if ctx:known("card", card, "effect") then
    local words = ctx.data.cards[card].fields.effect
    return words ~= "" and string.format("%s for %s: %s", name, powers.name(ctx, power), words) or nil
  end
  for _, field in ipairs({ "handicap_issue", "handicap_cards", "handicap_units" }) do
    if ctx:known("card", card, field) then
      return nil
    end
  end
  return string.format("%s for %s: carry it out as the printed card says (none of it is entered: enter it in Card data to have it done for you).",
    name, powers.name(ctx, power))
end

-- The cards due at a time, one after the other: the issue (the receiver chooses), the cards
-- and units, then what is done by hand.
handicap.handicap_use = steps.procedure("Handicap cards (20.13, 21.12)", {
  {
    name = "each card",
    calls = "decide",
    each = function(ctx)
      return due(ctx, ctx.locals.timing)
    end,
    label = function(ctx, entry)
      return ctx.data.cards[entry.card].name
    end,
    run = function(ctx, entry)
      local card, power = entry.card, entry.power
      local f = ctx.data.cards[card].fields
      local name = ctx.data.cards[card].name
      ctx:log(string.format("%s uses %s (%s).", powers.name(ctx, power), name, ctx.locals.timing))
      if ctx:known("card", card, "handicap_cards") and f.handicap_cards > 0 then
        -- Before the Wager the cards wait apart like the Initial Phase's (19.2); later they
        -- join the side's hand, with its War Phase cards.
        local early = ctx.locals.timing == "start of the turn" or ctx.locals.timing == "after the Initial Phase"
        local drawn = deck.draw(ctx, "deck", early and powers.hand_zone(ctx, power) or solitaire.hand_of(ctx, power),
          f.handicap_cards)
        for _, c in ipairs(drawn) do
          ctx.vars.initial_cards[c] = early or nil
        end
        ctx:log(string.format("%s: %s draws %d card%s.", name, powers.name(ctx, power), #drawn, #drawn == 1 and "" or "s"))
      end
      if ctx:known("card", card, "handicap_units") then
        for _, kind in ipairs(ctx.data.unit_kind_ids) do
          local n = f.handicap_units[kind]
          if n and n > 0 and forces.owner_of_kind(ctx, kind) == power then
            issues.recruit(ctx, power, kind, n, name)
          elseif n and n > 0 then
            -- A card's units are its receiver's: units of another power's kind (a card entered
            -- for France dealt to an Allied power) are left to the players.
            ctx.locals.by_hand = ctx.locals.by_hand or {}
            table.insert(ctx.locals.by_hand, string.format("%s gives %d %s, which %s does not recruit: carry it out as the printed card says.",
              name, n, ctx.data.unit_kinds[kind].name, powers.name(ctx, power)))
          end
        end
      end
      local words = by_hand(ctx, card, power)
      if words then
        ctx.locals.by_hand = ctx.locals.by_hand or {}
        table.insert(ctx.locals.by_hand, words)
      end
      local spec = ctx:known("card", card, "handicap_issue") and f.handicap_issue or nil
      if spec and spec.distance then
        local choices = issue_choices(ctx, spec, power)
        if #choices == 0 then
          ctx:log(string.format("%s: no issue it names waits on the Diplomacy Display.", name))
          return
        end
        local opts = {}
        for i, piece in ipairs(choices) do
          opts[i] = { arg = piece, piece = piece, label = string.format("%s to %s", ctx.data.pieces[piece].name,
            display.describe(ctx, power, spec.distance)) }
        end
        return steps.call("decide", { power = power, key = "handicap_issue", card = card, distance = spec.distance,
          text = string.format("%s: which issue goes on your track?", name), options = opts })
      end
    end,
    resume = function(ctx, result)
      local power = result.power
      local where = display.put(ctx, result.choice, power, result.distance)
      ctx:log(string.format("%s: %s puts %s on %s.", ctx.data.cards[result.card].name, powers.name(ctx, power),
        ctx.data.pieces[result.choice].name, where))
    end,
  },
  {
    name = "by hand",
    calls = "checklist",
    run = function(ctx)
      if ctx.locals.by_hand then
        return steps.call("checklist", { items = ctx.locals.by_hand, title = "Handicap cards" })
      end
    end,
  },
  finish = function()
    return {}
  end,
})

-- The end of the turn: the cards dealt go back into the deck, shuffled (20.13, 21.12), or
-- are set aside (option solitaire.handicap_used=discard).
function handicap.end_of_turn(ctx)
  local to = options.get(ctx, "solitaire.handicap_used") == "discard" and USED or DECK
  local n = 0
  for _, power in ipairs(powers.CLOCKWISE) do
    n = n + ctx:count("handicap." .. power)
    deck.move_all(ctx, "handicap." .. power, to)
  end
  if n > 0 and to == DECK then
    ctx:shuffle(DECK)
    ctx:log(string.format("The %d Handicap card%s of the turn are shuffled back into the Handicap deck.", n, n == 1 and "" or "s"))
  elseif n > 0 then
    ctx:log(string.format("The %d Handicap card%s of the turn are set aside (21.12).", n, n == 1 and "" or "s"))
  end
end

return handicap

package org.idgen.it;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** messages: id bigint DEFAULT snowflake53(3). */
@Entity
@Table(name = "messages")
public class Message
{
	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String body;

	protected Message()
	{
	}

	public Message(String body)
	{
		this.body = body;
	}

	public Long getId()
	{
		return id;
	}
}
